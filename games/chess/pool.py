"""A bounded pool of Stockfish processes shared by the threads of one worker process.

A thread-pool worker runs hundreds of items at once; most wait on a model, and the few that
need the engine at the same moment share at most ``size`` engine processes (one per core by
default: each engine searches with one thread, so more would only time-slice the same cores).
An engine is used by one thread at a time; a thread that finds none idle waits for one.
An engine that died during a call is discarded and replaced on next use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from games.chess.engine import Engine

POOL_SIZE_ENV = "PODIUM_ENGINES_PER_PROCESS"


def default_size() -> int:
    raw = os.environ.get(POOL_SIZE_ENV, "").strip()
    if raw:
        try:
            size = int(raw)
        except ValueError:
            raise ValueError(f"{POOL_SIZE_ENV} must be a positive integer, got {raw!r}") from None
        if size < 1:
            raise ValueError(f"{POOL_SIZE_ENV} must be a positive integer, got {raw!r}")
        return size
    return os.cpu_count() or 1


class EnginePool:
    def __init__(self, factory: Callable[[], Engine], size: int | None = None) -> None:
        self.factory = factory
        self.size = size or default_size()
        self.pid = os.getpid()
        self._idle: list[Engine] = []
        self._live = 0  # engines started and not discarded (idle or in use)
        self._cond = threading.Condition()
        self.peak_in_use = 0
        self._in_use = 0

    @contextmanager
    def engine(self) -> Iterator[Engine]:
        engine = self._take()
        healthy = True
        try:
            yield engine
        except BaseException:
            healthy = engine.alive
            raise
        finally:
            self._give_back(engine, healthy and engine.alive)

    def _take(self) -> Engine:
        dead: list[Engine] = []
        with self._cond:
            while True:
                while self._idle and not self._idle[-1].alive:  # died while idle
                    dead.append(self._idle.pop())
                    self._live -= 1
                if self._idle or self._live < self.size:
                    break
                self._cond.wait()
            self._in_use += 1
            self.peak_in_use = max(self.peak_in_use, self._in_use)
            engine = self._idle.pop() if self._idle else None
            if engine is None:
                self._live += 1
        for corpse in dead:
            corpse.close()
        if engine is not None:
            return engine
        try:
            return self.factory()  # started outside the lock: it takes a while
        except BaseException:
            with self._cond:
                self._live -= 1
                self._in_use -= 1
                self._cond.notify()
            raise

    def _give_back(self, engine: Engine, healthy: bool) -> None:
        if not healthy:
            engine.close()
        with self._cond:
            self._in_use -= 1
            if healthy:
                self._idle.append(engine)
            else:
                self._live -= 1
            self._cond.notify()

    def any_engine_info(self) -> Engine:
        """An engine to read the name/path from (starts one if none ran yet)."""
        with self.engine() as e:
            return e

    def close(self) -> None:
        with self._cond:
            idle, self._idle = self._idle, []
            self._live -= len(idle)
        for engine in idle:
            engine.close()
