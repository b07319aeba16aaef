"""The threads of one worker process share a pool of Stockfish processes bounded by cores:
many threads, at most `size` engines, each used by one thread at a time; a dead one is replaced."""

from __future__ import annotations

import threading

import chess

from games.chess.engine import Engine, SearchLimit
from games.chess.pool import EnginePool
from tests.games.chess.conftest import _stockfish_found
from tests.requirements import require


def test_it_serves_many_threads_with_at_most_size_engines():
    require(_stockfish_found(), "Stockfish binary (Debian package stockfish)")
    started: list[Engine] = []

    def factory() -> Engine:
        engine = Engine(limit=SearchLimit(nodes=2000))
        started.append(engine)
        return engine

    pool = EnginePool(factory, size=2)
    boards = [
        chess.Board(),
        chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
    ]
    results: list[str | None] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        with pool.engine() as engine:
            best = engine.analyse(boards[i % 2]).best_move
        with lock:
            results.append(best)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert len(results) == 16 and all(results)
        assert len(started) <= 2 and pool.peak_in_use <= 2
        # one position, one answer, whichever engine analysed it (cleared hash, fixed nodes)
        assert len({r for i, r in enumerate(results) if i % 2 == 0}) <= 2
    finally:
        pool.close()


def test_it_replaces_an_engine_that_died():
    require(_stockfish_found(), "Stockfish binary (Debian package stockfish)")
    pool = EnginePool(lambda: Engine(limit=SearchLimit(nodes=1000)), size=1)
    try:
        with pool.engine() as first:
            assert first.alive
        first.close()  # dies while idle in the pool
        with pool.engine() as second:
            assert second.analyse(chess.Board()).best_move
        assert second is not first
    finally:
        pool.close()
