"""The engine of this worker process: started on first use, restarted if it died or if the
process was forked (a Celery prefork child must not share its parent's engine pipes).

The analysis cache is Redis when a URL is configured (PODIUM_CHESS_CACHE_URL, else REDIS_URL),
so all workers share it; otherwise an in-process cache.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import TypeVar

import chess.engine

from games.chess.analysis import Analyzer
from games.chess.cache import AnalysisCache, MemoryAnalysisCache, RedisAnalysisCache
from games.chess.engine import Engine, EngineError, SearchLimit

log = logging.getLogger(__name__)
T = TypeVar("T")

_lock = threading.RLock()
_engine: Engine | None = None
_cache: AnalysisCache | None = None
_cache_pid: int | None = None


def cache_url() -> str | None:
    return os.environ.get("PODIUM_CHESS_CACHE_URL") or os.environ.get("REDIS_URL") or None


def analysis_cache() -> AnalysisCache:
    global _cache, _cache_pid
    with _lock:
        if _cache is None or _cache_pid != os.getpid():
            url = cache_url()
            prefix = os.environ.get("PODIUM_CACHE_PREFIX", "podium") + ":chess:analysis:"
            _cache = RedisAnalysisCache(url, prefix=prefix) if url else MemoryAnalysisCache()
            _cache_pid = os.getpid()
        return _cache


def engine() -> Engine:
    """This process's engine, (re)started when missing, dead or inherited through fork."""
    global _engine
    with _lock:
        if _engine is not None and (_engine.pid != os.getpid() or not _engine.alive):
            if _engine.pid == os.getpid():
                log.warning("chess engine process died; restarting it")
                _engine.close()
            _engine = None  # a forked child leaves the parent's engine alone
        if _engine is None:
            _engine = Engine(os.environ.get("PODIUM_STOCKFISH") or None)
            _register_shutdown()
        return _engine


def with_engine(fn: Callable[[Engine], T]) -> T:
    """Run ``fn`` with the engine, restarting it once if it dies during the call."""
    with _lock:
        try:
            return fn(engine())
        except (EngineError, chess.engine.EngineTerminatedError):
            if _engine is not None and _engine.alive:
                raise  # a real engine failure, not a dead process
            log.warning("chess engine died during a call; restarting and retrying once")
            return fn(engine())


class ProcessEngine(Engine):
    """Stands in for the process engine: every call goes through ``with_engine``, so an engine
    that dies between or during calls is restarted instead of failing the item."""

    def __init__(self) -> None:  # no process of its own: the module-level one is used
        first = engine()
        self.path, self.limit, self.name = first.path, first.limit, first.name
        self.pid = os.getpid()

    @property
    def alive(self) -> bool:
        return True

    def analyse(self, board, *, limit=None, root_moves=None):  # type: ignore[no-untyped-def]
        return with_engine(lambda e: e.analyse(board, limit=limit, root_moves=root_moves))

    def play(self, board, *, elo=None, limit=None):  # type: ignore[no-untyped-def]
        return with_engine(lambda e: e.play(board, elo=elo, limit=limit))

    def close(self) -> None:
        pass


def analyzer(limit: SearchLimit | None = None) -> Analyzer:
    """An analyzer over the process engine and the shared cache (cheap: make one per item)."""
    return Analyzer(ProcessEngine(), analysis_cache(), limit)


_shutdown_registered = False


def _register_shutdown() -> None:
    """python-chess runs each engine's event loop in a non-daemon thread, which would keep the
    interpreter from exiting; quit the engine before threads are joined at exit."""
    global _shutdown_registered
    if _shutdown_registered:
        return
    _shutdown_registered = True
    register = getattr(threading, "_register_atexit", None)  # runs before non-daemon threads are joined
    if register is not None:
        register(shutdown)
    else:  # pragma: no cover - every supported Python has it
        import atexit

        atexit.register(shutdown)


def shutdown() -> None:
    global _engine
    with _lock:
        if _engine is not None and _engine.pid == os.getpid():
            _engine.close()
        _engine = None
