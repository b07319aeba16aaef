"""Bot self-play over many seeds, next to the published means (Walton-Rivers et al.).

    .venv/bin/python bench/hanabi_selfplay.py --seeds 1000 [--bots iggi,piers] [--json out.json]

Prints, per bot and player count, the mean HLE score (0 on bomb-out) ± standard error, the
published mean and the difference; plus the mean fireworks score and bomb-out rate.
One process: the machine's cores are shared.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.hanabi.bots import BOT_CLASSES, bot_game

# self-play means (HLE score) for 2/3/4/5 players, from the issue's reference table
REFERENCE = {
    "piers": (17.0, 17.2, 16.6, 15.2),
    "vandenbergh": (16.0, 17.7, 16.8, 15.6),
    "iggi": (15.5, 15.8, 14.9, 13.2),
    "outer": (13.8, 15.5, 14.7, 13.4),
    "internal": (10.1, 10.6, 10.3, 9.2),
    "flawed": (0.0, 0.0, 0.0, 0.0),
    "legal_random": (0.0, 0.0, 0.0, 0.0),
}


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--bots", default=",".join(BOT_CLASSES))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = []
    print(f"{'bot':<13}{'p':>2}  {'HLE mean±SE':>13}  {'ref':>5}  {'diff':>5}  {'fireworks':>9}  "
          f"{'bomb%':>5}  {'ms/game':>7}", flush=True)
    for name in args.bots.split(","):
        for i, players in enumerate((2, 3, 4, 5)):
            t0 = time.perf_counter()
            games = [bot_game([name] * players, seed) for seed in range(args.seeds)]
            elapsed = time.perf_counter() - t0
            hle, se = mean_se([g.hle_score for g in games])
            fw = sum(g.fireworks_score for g in games) / len(games)
            bomb = sum(g.end_reason() == "bomb" for g in games) / len(games)
            ref = REFERENCE[name][i]
            rows.append({"bot": name, "players": players, "hle_mean": hle, "hle_se": se,
                         "reference": ref, "fireworks_mean": fw, "bomb_rate": bomb,
                         "seeds": args.seeds, "ms_per_game": 1000 * elapsed / len(games)})
            print(f"{name:<13}{players:>2}  {hle:>7.2f}±{se:<5.2f}  {ref:>5.1f}  {hle - ref:>+5.2f}  "
                  f"{fw:>9.2f}  {100 * bomb:>5.1f}  {1000 * elapsed / len(games):>7.1f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
