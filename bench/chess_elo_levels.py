"""Measure the Elo ladder: the builtin opponents play a round robin at the settings games use.

Every pair plays ``--games`` games (colours alternating) with the same move code a benchmark
game uses (``evaluators.chess.players.builtin_move`` through an ``Analyzer`` at the games'
default search limit), so the ratings fitted here are the ratings of the opponents a model
actually meets. The pairings' W/D/L are written to a ladder file that the games benchmark
loads (``data/chess_ladder/``); the ratings and their covariance are fitted from those counts
(games/chess/ladder.py) and printed next to the UCI_Elo settings.

    .venv/bin/python bench/chess_elo_levels.py --games 40 --out data/chess_ladder/ladder.json
    .venv/bin/python bench/chess_elo_levels.py --fit-only data/chess_ladder/ladder.json
    .venv/bin/python bench/chess_elo_levels.py --coverage 40 data/chess_ladder/ladder.json

``--coverage REPS`` simulates worlds like the measured one (its fitted ratings taken as the
truth, its pairings' game counts) and prints how often the model's 95 % interval covers the
true rating, for players from below the ladder to above it, and the mean half width.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess

from evaluators.chess.players import builtin_move, builtin_rng
from evaluators.chess.rating import DEFAULT_LADDER_GAMES
from games.chess.analysis import Analyzer
from games.chess.elo_simulation import coverage
from games.chess.engine import DEFAULT_NODES, Engine, SearchLimit
from games.chess.ladder import Ladder, PairRecord, fit_ladder
from games.chess.match import MAX_MOVES, game_over, score_for

DEFAULT_PLAYERS = [
    "random",
    "stockfish-elo-1350",
    "stockfish-elo-1800",
    "stockfish-elo-2200",
    "stockfish-elo-2600",
    "stockfish",
]


def play(white: str, black: str, analyzer: Analyzer, key: str) -> float:
    """White's points in one game, played move by move exactly as a benchmark game plays a builtin."""
    board = chess.Board()
    while (end := game_over(board, max_moves=MAX_MOVES)) is None:
        name = white if board.turn == chess.WHITE else black
        rng = builtin_rng(name, key, 0, len(board.move_stack))
        board.push(builtin_move(name, board, analyzer, rng))
    return score_for(end[0], True)


def report(ladder: Ladder) -> None:
    fit = fit_ladder(ladder)
    print(
        f"engine {ladder.engine}, limit {ladder.limit}, anchor {ladder.anchor} = {ladder.anchor_elo}"
    )
    for name in fit.rated:
        r, se = fit.ratings[name], fit.se(name)
        shown = f"{r:6.0f} +- {1.96 * se:4.0f}" if se is not None else f"{r:6.0f} (anchor)"
        print(f"  {name:22s} {shown}   points {fit.points[name]:.1f}/{fit.games[name]}")
    for p in ladder.pairs:
        print(f"  {p.a} vs {p.b}: +{p.wins} ={p.draws} -{p.losses}")
    print("unrated (scored 0 % or 100 %, no finite rating):", ", ".join(fit.unrated) or "none")


def simulate_coverage(ladder: Ladder, reps: int, games: int) -> int:
    fit = fit_ladder(ladder)
    truth = dict(fit.ratings)
    counts = {(p.a, p.b): p.games for p in ladder.pairs if p.a in truth and p.b in truth}
    lo, hi = min(truth.values()), max(truth.values())
    thetas = [lo - 300, lo, *sorted(truth.values())[1:-1], hi, hi + 300]
    t0 = time.perf_counter()
    for share in (0.0, 0.3):
        trials = coverage(
            truth,
            counts,
            thetas,
            anchor=fit.anchor,
            games=games,
            reps=reps,
            draw_share=share,
            centre=ladder.centre,
            centre_elo=ladder.centre_elo,
        )
        rate = sum(t.rating.covers(t.truth) for t in trials) / len(trials)
        print(
            f"draw share {share}: coverage {rate:.3f} of {len(trials)} simulated players ({games} games each)"
        )
        for theta in thetas:
            part = [t for t in trials if t.truth == theta]
            widths = [t.rating.half_width for t in part if t.rating.half_width is not None]
            print(
                f"  true {theta:6.0f}: covered {sum(t.rating.covers(theta) for t in part) / len(part):.2f}, "
                f"mean half width {sum(widths) / len(widths) if widths else float('nan'):5.0f}"
            )
    print(f"{time.perf_counter() - t0:.0f} s")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", nargs="+", default=DEFAULT_PLAYERS)
    ap.add_argument("--games", type=int, default=40, help="games per pair (colours alternate)")
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="the games' search limit")
    ap.add_argument("--anchor", default="stockfish-elo-1350")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--fit-only", type=Path, help="print the fit of an existing ladder file")
    ap.add_argument(
        "--coverage", type=int, metavar="REPS", help="simulated players per true rating"
    )
    ap.add_argument("--model-games", type=int, default=DEFAULT_LADDER_GAMES)
    ap.add_argument("ladder_file", type=Path, nargs="?")
    args = ap.parse_args()
    if args.fit_only:
        report(Ladder.load(args.fit_only))
        return 0
    if args.coverage:
        return simulate_coverage(Ladder.load(args.ladder_file), args.coverage, args.model_games)
    limit = SearchLimit(nodes=args.nodes)
    pairs: list[PairRecord] = []
    if args.out and args.out.exists():  # resume: pairs already in the file are not replayed
        pairs = list(Ladder.load(args.out).pairs)
    t0 = time.perf_counter()
    with Engine(limit=limit) as sf:
        analyzer = Analyzer(sf, limit=limit)
        engine_id = sf.id
        for a, b in itertools.combinations(args.players, 2):
            if any({p.a, p.b} == {a, b} for p in pairs):
                continue
            w = d = lo = 0
            for g in range(args.games):
                white, black = (a, b) if g % 2 == 0 else (b, a)
                s = play(white, black, analyzer, f"ladder:{a}:{b}:{g}")
                s_a = s if white == a else 1.0 - s
                w, d, lo = w + (s_a == 1.0), d + (s_a == 0.5), lo + (s_a == 0.0)
            pairs.append(PairRecord(a, b, w, d, lo))
            print(f"{a} vs {b}: +{w} ={d} -{lo}  ({time.perf_counter() - t0:.0f} s)", flush=True)
            if args.out:  # saved after every pair, so a stopped run loses at most one pairing
                _save(args, pairs, engine_id, limit)
    ladder = _save(args, pairs, engine_id, limit)
    print(f"{len(pairs)} pairs in {time.perf_counter() - t0:.0f} s")
    report(ladder)
    return 0


def _save(
    args: argparse.Namespace, pairs: list[PairRecord], engine_id: str, limit: SearchLimit
) -> Ladder:
    ladder = Ladder(
        players=tuple(args.players),
        pairs=tuple(pairs),
        engine=engine_id,
        limit=limit.key(),
        anchor=args.anchor,
        anchor_elo=float(args.anchor.rpartition("-")[2])
        if args.anchor.startswith("stockfish-elo-")
        else 1500.0,
        measured=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        games_per_pair=args.games,
    )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(ladder.to_dict(), indent=1) + "\n")
    return ladder


if __name__ == "__main__":
    raise SystemExit(main())
