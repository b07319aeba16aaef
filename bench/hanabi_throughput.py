"""Bot self-play throughput next to OpenSpiel's raw random-play rate, on this machine.

    .venv/bin/python bench/hanabi_throughput.py [--seconds 5] [--players 2] [--bots iggi,piers]

Both rates are games per second on one core (one process, measured one after the other in
the same run). "OpenSpiel raw" is random legal play straight on pyspiel (chance outcomes
sampled too, nothing else); "bot self-play" is our full stack: seeded deal, the state mirror,
knowledge, and the bots' rules. The ratio says what the stack costs over the bare engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel

from games.hanabi.bots import bot_game


def openspiel_random_rate(players: int, seconds: float) -> tuple[float, float]:
    game = pyspiel.load_game("hanabi", {"players": players})
    rng = random.Random(0)
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, moves / games


def bot_rate(bot: str, players: int, seconds: float) -> tuple[float, float]:
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        moves += bot_game([bot] * players, games).turn
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, moves / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="iggi,piers,vandenbergh,legal_random")
    args = ap.parse_args()
    raw, raw_moves = openspiel_random_rate(args.players, args.seconds)
    print(f"{args.players} players, CPU time per core (process_time), {args.seconds:.0f}s each")
    print(
        f"OpenSpiel raw random play : {raw:9.1f} games/s/core  ({raw_moves:.0f} moves/game, "
        f"{raw * raw_moves:,.0f} moves/s)"
    )
    for bot in args.bots.split(","):
        rate, per_game = bot_rate(bot, args.players, args.seconds)
        print(
            f"bot self-play {bot:<12}: {rate:9.1f} games/s/core  ({per_game:.0f} moves/game, "
            f"{rate * per_game:,.0f} moves/s)  ratio to raw games/s {rate / raw:.4f}, "
            f"moves/s {rate * per_game / (raw * raw_moves):.3f}"
        )


if __name__ == "__main__":
    main()
