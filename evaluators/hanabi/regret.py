"""Move-level regret by Monte-Carlo rollouts with a fixed bot team.

For a move made in a state, each candidate move is applied and the game is played out by a
team of bots (every seat the same bot) over ``rollouts`` possible futures: the undealt cards
are shuffled again per rollout, the same shuffles for every candidate (common random numbers,
so differences between candidates are not drowned by deal luck). Regret = value of the best
candidate minus value of the move made, in fireworks points. The hands are the real ones:
this is the analyst's view (like an engine in chess), not the player's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.hanabi import HanabiGame
from games.hanabi.bots import make_bot, play_out


@dataclass(frozen=True)
class MoveRegret:
    turn: int
    seat: int
    move: str
    value: float  # mean final fireworks score after the move
    best_move: str
    best_value: float

    @property
    def regret(self) -> float:
        return max(0.0, self.best_value - self.value)


def _rollout_value(game: HanabiGame, move: str, team: str, decks: Sequence[random.Random],
                   stream: str) -> float:
    total = 0.0
    for r, deck_rng in enumerate(decks):
        sim = game.clone(reshuffle=random.Random(deck_rng.random()))
        sim.apply(move)
        bots = [make_bot(team, seed=game.seed, seat=s, stream=f"{stream}/{r}")
                for s in range(game.players)]
        total += play_out(sim, bots).fireworks_score
    return total / len(decks)


def candidate_moves(game: HanabiGame, chosen: str, team: str, limit: int) -> list[str]:
    """The move made, the team bot's own choice, then plays, discards and hints, up to limit."""
    legal = game.legal_moves()
    bot_move = make_bot(team, seed=game.seed, seat=game.current_player, stream="regret").act(game)
    ordered = [chosen, bot_move]
    ordered += [m for m in legal if m.startswith("(Play")]
    ordered += [m for m in legal if m.startswith("(Discard")]
    ordered += [m for m in legal if m.startswith("(Reveal")]
    seen: list[str] = []
    for m in ordered:
        if m not in seen:
            seen.append(m)
    return seen[:max(limit, 2)]


def move_regret(game: HanabiGame, chosen: str, *, team: str = "iggi", rollouts: int = 4,
                max_candidates: int = 10) -> MoveRegret:
    """Regret of ``chosen`` in ``game`` (the state before the move; not modified)."""
    values = {}
    for move in candidate_moves(game, chosen, team, max_candidates):
        decks = [random.Random(f"podium-hanabi-regret/{game.seed}/{game.turn}/{r}")
                 for r in range(rollouts)]
        values[move] = _rollout_value(game, move, team, decks, stream=f"t{game.turn}")
    best = max(values, key=lambda m: values[m])
    return MoveRegret(game.turn, game.current_player, chosen, values[chosen], best, values[best])


def game_regrets(seed: int, players: int, moves: Sequence[str], seats: set[int], *,
                 team: str = "iggi", rollouts: int = 4, max_candidates: int = 10) -> list[MoveRegret]:
    """Regret of every move made by one of ``seats`` in a finished game."""
    game = HanabiGame(seed, players)
    out = []
    for move in moves:
        if game.current_player in seats:
            out.append(move_regret(game, move, team=team, rollouts=rollouts,
                                   max_candidates=max_candidates))
        game.apply(move)
    return out
