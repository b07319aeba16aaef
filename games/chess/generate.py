"""Command line: generate a position set from Stockfish self-play.

python -m games.chess.generate --n 24 --seed 2025 --name demo --out data/chess_demo/positions.json
"""

from __future__ import annotations

import argparse
import sys

from games.chess.analysis import Analyzer
from games.chess.engine import Engine, SearchLimit
from games.chess.positions import generate_position_set, save_position_set


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, required=True, help="number of positions")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", default="generated", help="set name, also the position id prefix")
    ap.add_argument(
        "--nodes", type=int, default=None, help="node limit (default: the engine default)"
    )
    ap.add_argument("--engine", default=None, help="path of the engine binary")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    limit = SearchLimit(nodes=args.nodes) if args.nodes else SearchLimit()
    with Engine(args.engine, limit=limit) as engine:
        ps = generate_position_set(
            Analyzer(engine),
            n=args.n,
            seed=args.seed,
            name=args.name,
            progress=lambda k: print(f"{k}/{args.n}", file=sys.stderr, flush=True),
        )
    save_position_set(ps, args.out)
    print(f"wrote {len(ps.positions)} positions to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
