"""Move-level regret by Monte-Carlo rollouts with a fixed bot team, from the mover's view.

A move is judged with what its player knew. Each rollout samples a hidden world: the mover's
own hand drawn from the cards it has not seen that agree with every hint it received (exact
posterior under hints and card counting, by rejection from a sequential proposal), and the
undealt cards shuffled. The candidate is applied in that world and a team of bots (every
seat the same bot) plays on to the end; the value is the HLE score (0 when the last life is
lost), the platform's headline.

* Common random numbers: every candidate is played in the same sampled worlds with the same
  bot random streams, so differences between candidates are not drowned by deal luck.
* No max-of-noisy-means bias: the best candidate is SELECTED on one set of worlds, and its
  advantage over the move made is ESTIMATED on a fresh set, as the mean of paired
  differences with its standard error. When the move made is the one selected, its regret
  is 0 exactly. (The estimate is of the selected candidate's advantage, so it can be a
  little below the true best's; it is unbiased for that candidate and may be negative.)
* Candidates: every legal move (plays, discards and hints) up to ``max_candidates``, the
  move made and the team bot's own choice first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from evaluators.stats import mean_se
from games.hanabi import HanabiGame
from games.hanabi.bots import make_bot, play_out

MAX_SAMPLE_TRIES = 10_000


class NoConsistentHandError(RuntimeError):
    """No hand agrees with the mover's hints (the knowledge mirror would be wrong)."""


@dataclass(frozen=True)
class MoveRegret:
    turn: int
    seat: int
    move: str
    best_move: str
    regret: float  # mean over evaluation worlds of value(best) - value(move); can be < 0
    regret_se: float
    value: float  # mean HLE score after the move made, evaluation worlds
    best_value: float
    rollouts: int  # evaluation worlds (the selection used as many again)
    # selection-stage utilities of every candidate: move -> (mean HLE, standard error)
    candidates: dict[str, tuple[float, float]] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "turn": self.turn,
            "seat": self.seat,
            "move": self.move,
            "best_move": self.best_move,
            "regret": self.regret,
            "regret_se": self.regret_se,
            "value": self.value,
            "best_value": self.best_value,
            "rollouts": self.rollouts,
            "candidates": {m: {"mean": v, "se": se} for m, (v, se) in self.candidates.items()},
        }


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """evaluators.stats.mean_se, with 0.0 for the SE of a single rollout (candidates compare)."""
    m, se = mean_se(xs)
    if m is None:
        raise ZeroDivisionError("mean of no values")
    return m, se or 0.0


def sample_hand(game: HanabiGame, player: int, rng: random.Random) -> list[int]:
    """A hand for ``player`` drawn from the exact posterior given its hint knowledge and the
    cards it cannot see (each unseen copy equally likely to be anywhere hidden)."""
    know = game.knowledge[player]
    base = game.unseen_counts(player)
    z0 = [sum(n for c, n in enumerate(base) if k.may_be(c)) for k in know]
    for _ in range(MAX_SAMPLE_TRIES):
        pool, hand, accept = list(base), [], 1.0
        for k, zmax in zip(know, z0):
            options = [(c, n) for c, n in enumerate(pool) if n > 0 and k.may_be(c)]
            z = sum(n for _, n in options)
            if z == 0:
                accept = 0.0
                break
            accept *= z / zmax
            pick, chosen = rng.random() * z, options[-1][0]
            for card, n in options:
                pick -= n
                if pick < 0:
                    chosen = card
                    break
            hand.append(chosen)
            pool[chosen] -= 1
        if accept > 0 and rng.random() < accept:
            return hand
    raise NoConsistentHandError(f"no hand agrees with player {player}'s hints at turn {game.turn}")


def sample_world(game: HanabiGame, player: int, rng: random.Random) -> HanabiGame:
    """The same public history, with ``player``'s hand and the undealt cards resampled."""
    deck = game.deck
    hand = sample_hand(game, player, rng)
    pool = game.unseen_counts(player)
    for c in hand:
        pool[c] -= 1
    rest = [c for c, n in enumerate(pool) for _ in range(n)]
    rng.shuffle(rest)
    for pos, card in zip(game.deck_positions[player], hand):
        deck[pos] = card
    undealt = len(deck) - game.deck_size
    deck[undealt:] = rest
    world = HanabiGame(game.seed, game.players, deck=deck)
    for move in game.moves:  # consistent hands make every past hint touch the same cards
        world.apply(move)
    return world


def candidate_moves(game: HanabiGame, chosen: str, team: str, limit: int) -> list[str]:
    """The move made, the team bot's own choice, then plays, discards and hints, up to limit."""
    legal = game.legal_moves()
    bot_move = make_bot(team, seed=game.seed, seat=game.current_player, stream="regret").act(game)
    ordered = [chosen, bot_move]
    for prefix in ("(Play", "(Discard", "(Reveal"):
        ordered += [m for m in legal if m.startswith(prefix)]
    return list(dict.fromkeys(ordered))[: max(limit, 2)]


def _values(
    game: HanabiGame, moves: Sequence[str], team: str, worlds: Sequence[HanabiGame], stream: str
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {m: [] for m in moves}
    for w, world in enumerate(worlds):
        for move in moves:
            sim = world.clone()
            sim.apply(move)
            bots = [
                make_bot(team, seed=game.seed, seat=s, stream=f"{stream}/{w}")
                for s in range(game.players)
            ]
            out[move].append(float(play_out(sim, bots).hle_score))
    return out


def move_regret(
    game: HanabiGame,
    chosen: str,
    *,
    team: str = "iggi",
    rollouts: int = 32,
    max_candidates: int = 60,
) -> MoveRegret:
    """Regret of ``chosen`` in ``game`` (the state before the move; not modified), judged
    from the mover's information. ``rollouts`` worlds select the best candidate and as many
    fresh worlds estimate its advantage."""
    if rollouts < 2:
        raise ValueError("regret needs at least 2 rollouts per stage (a standard error)")
    seat = game.current_player
    base = f"podium-hanabi-regret/{game.seed}/{game.turn}"
    rng = random.Random(f"{base}/select")
    select_worlds = [sample_world(game, seat, rng) for _ in range(rollouts)]
    moves = candidate_moves(game, chosen, team, max_candidates)
    selected = _values(game, moves, team, select_worlds, stream=f"t{game.turn}/select")
    utilities = {m: _mean_se(v) for m, v in selected.items()}
    best = max(moves, key=lambda m: (utilities[m][0], m == chosen))  # ties keep the move made
    rng = random.Random(f"{base}/estimate")
    fresh = [sample_world(game, seat, rng) for _ in range(rollouts)]
    evaluated = _values(
        game, list(dict.fromkeys([chosen, best])), team, fresh, stream=f"t{game.turn}/estimate"
    )
    diffs = [b - c for b, c in zip(evaluated[best], evaluated[chosen])]
    regret, se = _mean_se(diffs)
    return MoveRegret(
        game.turn,
        seat,
        chosen,
        best,
        regret,
        se,
        _mean_se(evaluated[chosen])[0],
        _mean_se(evaluated[best])[0],
        rollouts,
        utilities,
    )


def game_regrets(
    seed: int,
    players: int,
    moves: Sequence[str],
    seats: set[int],
    *,
    team: str = "iggi",
    rollouts: int = 32,
    max_candidates: int = 60,
) -> list[MoveRegret]:
    """Regret of every move made by one of ``seats`` in a finished game."""
    game = HanabiGame(seed, players)
    out = []
    for move in moves:
        if game.current_player in seats:
            out.append(
                move_regret(game, move, team=team, rollouts=rollouts, max_candidates=max_candidates)
            )
        game.apply(move)
    return out


def mean_regret(regrets: Sequence[MoveRegret]) -> tuple[float | None, float | None]:
    """Mean regret over moves and its standard error (moves' worlds are independent)."""
    if not regrets:
        return None, None
    n = len(regrets)
    return (sum(r.regret for r in regrets) / n, math.sqrt(sum(r.regret_se**2 for r in regrets)) / n)
