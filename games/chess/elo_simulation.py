"""Simulated ladders and players, to check that the rating intervals cover the truth.

A simulated world has true ratings for the ladder's rungs. Its round robin is played with the
same numbers of games per pairing as the real ladder, the ladder is fitted from those results
(games/chess/ladder.py), and a player of known true rating then plays the adaptive design
(games/chess/elo.py ``next_opponent``) in batches, as a benchmark's games start several at a
time. Games are drawn with a draw rate that keeps the expected score at the Elo expectation,
so draws make the results less noisy than the half-point likelihood assumes, never more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.chess.elo import Opponents, Rating, Record, expected_score, next_opponent, rate
from games.chess.ladder import Ladder, LadderError, PairRecord, fit_ladder, ladder_opponents


def play(rng: random.Random, p: float, draw_share: float) -> float:
    """One game's points with expectation ``p``: draws take ``draw_share`` of the
    uncertainty 4 p (1 - p), the rest is a win or a loss."""
    d = draw_share * 4.0 * p * (1.0 - p)
    u = rng.random()
    return 1.0 if u < p - d / 2 else 0.5 if u < p + d / 2 else 0.0


def simulate_ladder(
    rng: random.Random,
    truth: Mapping[str, float],
    games: Mapping[tuple[str, str], int],
    *,
    anchor: str,
    draw_share: float = 0.3,
    centre: Sequence[str] | None = None,
    centre_elo: float | None = None,
) -> Opponents:
    """A fitted ladder from a simulated round robin (drawn again in the rare world where the
    anchor scores 0 % or 100 %, since a real ladder like that would not be stored)."""
    for _ in range(1000):
        try:
            return _one_ladder(
                rng,
                truth,
                games,
                anchor=anchor,
                draw_share=draw_share,
                centre=centre,
                centre_elo=centre_elo,
            )
        except LadderError:
            continue
    raise LadderError("almost no simulated round robin of this ladder can be fitted")


def _one_ladder(
    rng: random.Random,
    truth: Mapping[str, float],
    games: Mapping[tuple[str, str], int],
    *,
    anchor: str,
    draw_share: float,
    centre: Sequence[str] | None,
    centre_elo: float | None,
) -> Opponents:
    pairs = []
    for (a, b), n in games.items():
        w = d = lo = 0
        for _ in range(n):
            s = play(rng, expected_score(truth[a], truth[b]), draw_share)
            w, d, lo = w + (s == 1.0), d + (s == 0.5), lo + (s == 0.0)
        pairs.append(PairRecord(a, b, w, d, lo))
    # the same scale convention as the measured ladder: a centre, by default every rung
    names = tuple(centre) if centre else tuple(truth)
    elo = (
        centre_elo
        if centre_elo is not None and centre
        else sum(truth[n] for n in names) / len(names)
    )
    ladder = Ladder(
        players=tuple(truth),
        pairs=tuple(pairs),
        engine="sim",
        limit="sim",
        anchor=anchor,
        anchor_elo=truth[anchor],
        centre=names,
        centre_elo=elo,
    )
    return ladder_opponents(fit_ladder(ladder))


@dataclass(frozen=True)
class Trial:
    truth: float
    rating: Rating


def simulate_player(
    rng: random.Random,
    opponents: Opponents,
    truth_ladder: Mapping[str, float],
    theta: float,
    *,
    games: int,
    batch: int = 4,
    draw_share: float = 0.3,
    draws: int = 64,
) -> Rating:
    """A player of true rating ``theta`` plays ``games`` adaptive games, ``batch`` at a time."""
    rungs = list(opponents.names)
    tally: dict[str, list[int]] = {}
    played = 0
    while played < games:
        records = [Record(o, *t) for o, t in tally.items()]
        opp = next_opponent(records, opponents, rungs)
        for _ in range(min(batch, games - played)):
            s = play(rng, expected_score(theta, truth_ladder[opp]), draw_share)
            t = tally.setdefault(opp, [0, 0, 0])
            t[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
            played += 1
    return rate([Record(o, *t) for o, t in tally.items()], opponents, draws=draws, step=4.0)


def coverage(
    truth_ladder: Mapping[str, float],
    ladder_games: Mapping[tuple[str, str], int],
    thetas: Sequence[float],
    *,
    anchor: str,
    games: int,
    reps: int,
    seed: int = 1,
    batch: int = 4,
    draw_share: float = 0.3,
    centre: Sequence[str] | None = None,
    centre_elo: float | None = None,
) -> list[Trial]:
    """``reps`` worlds per true rating, each with its own simulated ladder."""
    rng = random.Random(seed)
    trials = []
    for theta in thetas:
        for _ in range(reps):
            opponents = simulate_ladder(
                rng,
                truth_ladder,
                ladder_games,
                anchor=anchor,
                draw_share=draw_share,
                centre=centre,
                centre_elo=centre_elo,
            )
            trials.append(
                Trial(
                    theta,
                    simulate_player(
                        rng,
                        opponents,
                        truth_ladder,
                        theta,
                        games=games,
                        batch=batch,
                        draw_share=draw_share,
                    ),
                )
            )
    return trials
