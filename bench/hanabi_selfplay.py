"""Bot self-play and 2-player cross-play over many seeds, as measured here.

    .venv/bin/python bench/hanabi_selfplay.py --seeds 1000 [--bots iggi,piers] [--json out.json]
    .venv/bin/python bench/hanabi_selfplay.py --cross --seeds 1000 [--json cross.json]

Self-play prints, per bot and player count, the mean HLE score (0 when the last life is
lost) with its standard error, the mean fireworks total (secondary: cards kept on a
bomb-out), the bomb-out rate and how often no rule fired (the original would have stopped
the game there; see games/hanabi/bots/agents.py).
Cross-play prints the 2-player matrix: row bot in seat 0, column bot in seat 1, HLE mean ± SE.
No target figures are printed: the bots port the original rule definitions, and published
means are evidence to compare against by hand, never something to tune towards.
One process: the machine's cores are shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evaluators.stats import mean_se
from games.hanabi import HanabiGame
from games.hanabi.bots import BOT_CLASSES, make_bot

CROSS_BOTS = ("piers", "vandenbergh", "iggi", "outer", "internal", "flawed")


def play(names: list[str], seed: int) -> tuple[HanabiGame, int]:
    """A bot game and how many of its moves came from the no-rule-fired default."""
    game = HanabiGame(seed, len(names))
    bots = [make_bot(n, seed=seed, seat=s) for s, n in enumerate(names)]
    defaults = 0
    while not game.is_terminal():
        decision = bots[game.current_player].decide(game)
        defaults += decision.rule.startswith("default")
        game.apply(decision.move)
    return game, defaults


def selfplay(bots: list[str], seeds: int) -> list[dict]:
    rows = []
    print(
        f"{'bot':<13}{'p':>2}  {'HLE mean±SE':>13}  {'fireworks':>9}  {'bomb%':>5}  "
        f"{'no-rule games':>13}  {'ms/game':>7}",
        flush=True,
    )
    for name in bots:
        for players in (2, 3, 4, 5):
            t0 = time.perf_counter()
            results = [play([name] * players, seed) for seed in range(seeds)]
            ms = 1000 * (time.perf_counter() - t0) / seeds
            games = [g for g, _ in results]
            hle, se = mean_se([float(g.hle_score) for g in games])
            fw, fw_se = mean_se([float(g.fireworks_score) for g in games])
            bomb = sum(g.end_reason() == "bomb" for g in games) / seeds
            no_rule = sum(d > 0 for _, d in results)
            rows.append(
                {
                    "bot": name,
                    "players": players,
                    "seeds": seeds,
                    "hle_mean": hle,
                    "hle_se": se,
                    "fireworks_mean": fw,
                    "fireworks_se": fw_se,
                    "bomb_rate": bomb,
                    "games_with_no_rule_fired": no_rule,
                    "ms_per_game": ms,
                }
            )
            print(
                f"{name:<13}{players:>2}  {hle:>7.2f}±{se:<5.2f}  {fw:>9.2f}  "
                f"{100 * bomb:>5.1f}  {no_rule:>13}  {ms:>7.1f}",
                flush=True,
            )
    return rows


def crossplay(bots: list[str], seeds: int) -> list[dict]:
    rows = []
    print("2-player cross-play, HLE mean ± SE (row: seat 0, column: seat 1)", flush=True)
    print(f"{'':<13}" + "".join(f"{b:>14}" for b in bots), flush=True)
    for a in bots:
        cells = []
        for b in bots:
            games = [play([a, b], seed)[0] for seed in range(seeds)]
            m, se = mean_se([float(g.hle_score) for g in games])
            fw, _ = mean_se([float(g.fireworks_score) for g in games])
            rows.append(
                {
                    "seat0": a,
                    "seat1": b,
                    "seeds": seeds,
                    "hle_mean": m,
                    "hle_se": se,
                    "fireworks_mean": fw,
                }
            )
            cells.append(f"{m:>8.2f}±{se:<4.2f}")
        print(f"{a:<13}" + "".join(f"{c:>14}" for c in cells), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--bots", default=None, help="comma-separated bot names")
    ap.add_argument("--cross", action="store_true", help="the 2-player cross-play matrix")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.cross:
        bots = args.bots.split(",") if args.bots else list(CROSS_BOTS)
    else:
        bots = args.bots.split(",") if args.bots else list(BOT_CLASSES)
    unknown = [b for b in bots if b not in BOT_CLASSES]
    if unknown:
        ap.error(f"unknown bots {unknown}; known: {sorted(BOT_CLASSES)}")
    rows = crossplay(bots, args.seeds) if args.cross else selfplay(bots, args.seeds)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
