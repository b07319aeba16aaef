"""Elo estimates of Stockfish strength levels: the UCI_Elo levels play a round robin, then

* each level's performance rating from its results with the opponents rated at their
  settings (this trusts the settings, which Stockfish calibrated at a time control, not at our
  node limit), and
* a joint Elo fit of all levels from the games alone, centred on the mean setting.

Prints both next to the settings and whether their order matches the settings.

    .venv/bin/python bench/chess_elo_levels.py --levels 1350 1800 2250 2700 --games 6 --nodes 5000
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.chess.elo import GameResult, estimate_elo, fit_ratings
from games.chess.engine import Engine, SearchLimit
from games.chess.match import play_game, score_for


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", type=int, nargs="+", default=[1350, 1800, 2250, 2700])
    ap.add_argument("--games", type=int, default=6, help="games per pair (colours alternate)")
    ap.add_argument("--nodes", type=int, default=5000)
    args = ap.parse_args()
    results: dict[int, list[GameResult]] = {lv: [] for lv in args.levels}
    pairs: list[tuple[str, str, float]] = []
    t0 = time.perf_counter()
    with Engine(limit=SearchLimit(nodes=args.nodes)) as sf:
        for a, b in itertools.combinations(args.levels, 2):
            for g in range(args.games):
                white, black = (a, b) if g % 2 == 0 else (b, a)
                rec = play_game(lambda bd, e=white: sf.play(bd, elo=e), lambda bd, e=black: sf.play(bd, elo=e))
                results[white].append(GameResult(black, score_for(rec.result, True)))
                results[black].append(GameResult(white, score_for(rec.result, False)))
                pairs.append((str(white), str(black), score_for(rec.result, True)))
    print(f"{len(args.levels)} levels, {args.games} games per pair, nodes={args.nodes}, "
          f"{time.perf_counter() - t0:.0f} s")
    estimates = {lv: estimate_elo(rs) for lv, rs in results.items()}
    joint = fit_ratings(pairs, mean_elo=sum(args.levels) / len(args.levels))
    for lv, est in estimates.items():
        print(f"UCI_Elo {lv}: score {est.score_rate:.2f} over {est.games} games; performance "
              f"{est.elo:5.0f} [95% CI {est.ci95[0]:.0f}, {est.ci95[1]:.0f}]; joint fit {joint[str(lv)]:5.0f}")
    perf_order = [lv for lv, _ in sorted(estimates.items(), key=lambda kv: kv[1].elo)]
    joint_order = sorted(args.levels, key=lambda lv: joint[str(lv)])
    print("order matches the settings: performance", perf_order == sorted(args.levels),
          "| joint fit", joint_order == sorted(args.levels))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
