"""Chess analysis throughput: scored moves per second per worker at the default node limit,
the same with a warm analysis cache, and the speed-up of two worker processes over one.

A scored move is one played move judged against the engine's best move (the best-move search
plus one restricted search when the move is not the engine's). The cache is Redis (shared by
the workers, as in production) under a fresh prefix per measurement, deleted afterwards.

    .venv/bin/python bench/chess_throughput.py [--moves 80] [--nodes 20000]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chess
import redis

from games.chess.analysis import Analyzer
from games.chess.cache import MemoryAnalysisCache, RedisAnalysisCache
from games.chess.engine import Engine, SearchLimit
from games.chess.positions import load_position_set
from games.chess.puzzles import load_puzzles


def workload(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """(FEN, UCI move) pairs: demo positions and puzzle positions, a random legal move in each."""
    rng = random.Random(seed)
    fens = [p.fen for p in load_position_set(ROOT / "data/chess_demo/positions.json").positions]
    shared = Path(os.environ.get("PODIUM_SHARED_DATA", ROOT / ".." / "shared" / "data"))
    sample = shared / "lichess" / "lichess_puzzles_sample_2k.csv"
    if sample.is_file():
        fens += [p.start_board().fen() for p in load_puzzles(sample, limit=n)]
    out = []
    for fen in fens[:n]:
        board = chess.Board(fen)
        out.append((fen, rng.choice(sorted(m.uci() for m in board.legal_moves))))
    return out


def score_all(
    pairs: list[tuple[str, str]], nodes: int, redis_url: str | None, prefix: str
) -> tuple[int, int]:
    cache = RedisAnalysisCache(redis_url, prefix=prefix) if redis_url else MemoryAnalysisCache()
    with Engine(limit=SearchLimit(nodes=nodes)) as engine:
        a = Analyzer(engine, cache)
        for fen, uci in pairs:
            a.score_move(chess.Board(fen), chess.Move.from_uci(uci))
        return len(pairs), a.searches


def _worker(args: tuple[list[tuple[str, str]], int, str | None, str]) -> tuple[int, int]:
    return score_all(*args)


def timed_pool(pairs, nodes, redis_url, prefix, workers: int) -> tuple[float, int]:
    chunks = [pairs[i::workers] for i in range(workers)]
    ctx = mp.get_context("spawn")
    with ctx.Pool(workers) as pool:
        pool.map(
            _worker, [([], nodes, redis_url, prefix)] * workers
        )  # start engines and imports first
        t0 = time.perf_counter()
        results = pool.map(_worker, [(c, nodes, redis_url, prefix) for c in chunks])
        elapsed = time.perf_counter() - t0
    return elapsed, sum(s for _, s in results)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=80)
    ap.add_argument("--nodes", type=int, default=SearchLimit().nodes)
    ap.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = ap.parse_args()
    redis_url = args.redis
    try:
        RedisAnalysisCache(redis_url, prefix="probe:")._redis.ping()
    except (
        redis.RedisError
    ) as exc:  # no Redis: the in-process cache still shows the cold/warm ratio
        print(f"Redis unavailable ({exc}); using the in-process cache, workers do not share it")
        redis_url = None
    pairs = workload(args.moves)
    prefixes = [f"podium:bench:chess:{uuid.uuid4().hex}:" for _ in range(3)]
    try:
        cold_s, cold_searches = timed_pool(pairs, args.nodes, redis_url, prefixes[0], 1)
        # the same moves again over the cache just filled: no search runs
        warm_s, warm_searches = timed_pool(pairs, args.nodes, redis_url, prefixes[0], 1)
        two_s, _ = timed_pool(pairs, args.nodes, redis_url, prefixes[1], 2)
    finally:
        if redis_url:
            for p in prefixes:
                RedisAnalysisCache(redis_url, prefix=p).clear()
    n = len(pairs)
    one_rate, two_rate = n / cold_s, n / two_s
    print(
        f"{n} scored moves, nodes={args.nodes}, cache={'redis' if redis_url else 'memory'}, cpus={os.cpu_count()}"
    )
    print(
        f"cold cache, 1 worker : {one_rate:8.1f} moves/s per worker ({cold_searches} searches, "
        f"{cold_searches / n:.2f} per move)"
    )
    print(
        f"warm cache, 1 worker : {n / warm_s:8.1f} moves/s per worker ({warm_searches} searches); "
        f"warm/cold = {cold_s / warm_s:.1f}x"
    )
    print(
        f"cold cache, 2 workers: {two_rate:8.1f} moves/s in total, {two_rate / 2:.1f} per worker; "
        f"speed-up 2 vs 1 = {two_rate / one_rate:.2f} (ideal 2.00)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
