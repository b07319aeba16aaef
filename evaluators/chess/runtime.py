"""The engines of this worker process: a pool bounded by cores (games.chess.pool) shared by its
threads, started on first use, an engine replaced if it died, the pool remade if the process
was forked (a Celery prefork child must not share its parent's engine pipes).

The analysis cache is Redis when a URL is configured (evaluators.config: PODIUM_CHESS_CACHE_URL,
else REDIS_URL),
so all workers share it; otherwise an in-process cache.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

import chess
import chess.engine

from evaluators.config import current
from games.chess.analysis import Analyzer
from games.chess.cache import AnalysisCache, MemoryAnalysisCache, RedisAnalysisCache
from games.chess.engine import Engine, EngineError, SearchLimit
from games.chess.pool import EnginePool

log = logging.getLogger(__name__)
T = TypeVar("T")

_lock = threading.RLock()
_pool: EnginePool | None = None
_info: tuple | None = None  # (path, limit, name, pid) of this process's engines
_cache: AnalysisCache | None = None
_cache_pid: int | None = None


def cache_url() -> str | None:
    return current().chess_cache_url


def analysis_cache() -> AnalysisCache:
    global _cache, _cache_pid
    with _lock:
        if _cache is None or _cache_pid != os.getpid():
            url = cache_url()
            prefix = current().cache_prefix + ":chess:analysis:"
            _cache = RedisAnalysisCache(url, prefix=prefix) if url else MemoryAnalysisCache()
            _cache_pid = os.getpid()
        return _cache


def pool() -> EnginePool:
    """This process's engine pool, (re)made when missing or inherited through fork."""
    global _pool
    with _lock:
        if _pool is None or _pool.pid != os.getpid():
            stockfish = current().stockfish
            _pool = EnginePool(lambda: Engine(stockfish))
            _register_shutdown()
        return _pool


def with_engine(fn: Callable[[Engine], T]) -> T:
    """Run ``fn`` with an engine from the pool, retrying once on a fresh engine if the one it
    got dies during the call (the pool discards a dead engine)."""
    for attempt in (1, 2):
        with pool().engine() as e:
            try:
                return fn(e)
            except (EngineError, chess.engine.EngineTerminatedError):
                if e.alive or attempt == 2:
                    raise  # a real engine failure, not a dead process (or died twice)
                log.warning("chess engine died during a call; restarting and retrying once")
    raise AssertionError("unreachable")


class ProcessEngine(Engine):
    """Stands in for the process's engines: every call takes one from the pool, so threads
    share at most one engine per core and an engine that dies is replaced, not fatal."""

    def __init__(self) -> None:  # no process of its own: the pool's are used
        global _info
        with _lock:
            if _info is None or _info[3] != os.getpid():
                first = pool().any_engine_info()
                _info = (first.path, first.limit, first.name, os.getpid())
        self.path, self.limit, self.name, self.pid = _info

    @property
    def alive(self) -> bool:
        return True

    def analyse(self, board, *, limit=None, root_moves=None):  # type: ignore[no-untyped-def]
        return with_engine(lambda e: e.analyse(board, limit=limit, root_moves=root_moves))

    def play(self, board, *, elo=None, limit=None):  # type: ignore[no-untyped-def]
        return with_engine(lambda e: e.play(board, elo=elo, limit=limit))

    def close(self) -> None:
        pass


_prefetcher: tuple[ThreadPoolExecutor, int] | None = None


def prefetch_best(analyzer: Analyzer, board: chess.Board) -> Future[object]:
    """Start the best-move search of ``board`` (the position's own value, the same whatever
    move a model plays) on this process's engines while the item waits on its model, so only
    the played move's search is left when the reply comes. At most one queued search per
    engine runs at a time; the result lands in the analysis cache. Pair with ``settle``."""
    global _prefetcher
    with _lock:
        if _prefetcher is None or _prefetcher[1] != os.getpid():
            workers = pool().size
            _prefetcher = (
                ThreadPoolExecutor(max_workers=workers, thread_name_prefix="chess-prefetch"),
                os.getpid(),
            )
        executor = _prefetcher[0]
    return executor.submit(analyzer.best, board.copy(stack=False))


def settle(prefetch: Future[object] | None) -> None:
    """Before the item scores its move: a prefetch not started yet is dropped (the item searches
    itself, now); one under way is waited for, so the position is never searched twice. A
    failed prefetch is ignored: the item's own search reports any engine failure."""
    if prefetch is None or prefetch.cancel():
        return
    try:
        prefetch.result()
    except Exception:  # noqa: BLE001 - see above
        log.debug("chess prefetch failed; the item searches itself", exc_info=True)


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
    register = getattr(
        threading, "_register_atexit", None
    )  # runs before non-daemon threads are joined
    if register is not None:
        register(shutdown)
    else:  # pragma: no cover - every supported Python has it
        import atexit

        atexit.register(shutdown)


def shutdown() -> None:
    global _pool
    with _lock:
        if _pool is not None and _pool.pid == os.getpid():
            _pool.close()
        _pool = None
