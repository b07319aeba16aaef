"""Elo estimate (performance rating) from game results against rated opponents.

The estimate maximises the logistic (Elo) likelihood of the observed scores. One virtual draw
against the mean opponent rating keeps it finite when every game was won or lost (a weak prior
that matters less as games accumulate). The 95% interval comes from the Fisher information.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

_LN10_400 = math.log(10) / 400.0
SEARCH_MARGIN = 1200.0  # the estimate stays within this many points of the opponents


@dataclass(frozen=True)
class GameResult:
    opponent_elo: float
    score: float  # 1 win, 0.5 draw, 0 loss (from the rated player's side)


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    se: float
    ci95: tuple[float, float]
    games: int
    score_rate: float  # observed points per game, without the virtual draw


def expected_score(elo: float, opponent_elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent_elo - elo) / 400.0))


def estimate_elo(results: Sequence[GameResult]) -> EloEstimate:
    if not results:
        raise ValueError("an Elo estimate needs at least one game")
    for r in results:
        if r.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"game score must be 0, 0.5 or 1, got {r.score!r}")
    mean_opp = sum(r.opponent_elo for r in results) / len(results)
    games = [(r.opponent_elo, r.score) for r in results] + [(mean_opp, 0.5)]
    points = sum(s for _, s in games)

    def surplus(elo: float) -> float:  # expected minus observed points; increasing in elo
        return sum(expected_score(elo, o) for o, _ in games) - points

    lo = min(o for o, _ in games) - SEARCH_MARGIN
    hi = max(o for o, _ in games) + SEARCH_MARGIN
    for _ in range(100):  # bisection: the surplus is monotone, so this always converges
        mid = (lo + hi) / 2.0
        if surplus(mid) < 0:
            lo = mid
        else:
            hi = mid
    elo = (lo + hi) / 2.0
    info = sum(_LN10_400 ** 2 * expected_score(elo, o) * (1 - expected_score(elo, o)) for o, _ in games)
    se = 1.0 / math.sqrt(info)
    return EloEstimate(
        elo=elo, se=se, ci95=(elo - 1.96 * se, elo + 1.96 * se), games=len(results),
        score_rate=sum(r.score for r in results) / len(results),
    )


def fit_ratings(games: Sequence[tuple[str, str, float]], *, mean_elo: float = 1500.0,
                iterations: int = 2000) -> dict[str, float]:
    """Joint Elo ratings of players who played each other: (a, b, a's score) per game.

    The maximum-likelihood (Bradley-Terry) fit, each player also given one virtual draw against
    an average phantom so that unbeaten or winless players stay finite. Only differences are
    identified: the ratings are shifted so their mean is ``mean_elo``. In a balanced round robin
    the fitted order is the order of the total scores.
    """
    players = sorted({p for a, b, _ in games for p in (a, b)})
    if not players:
        raise ValueError("fit_ratings needs at least one game")
    r = dict.fromkeys(players, 0.0)
    for _ in range(iterations):
        moved = 0.0
        for p in players:
            e0 = expected_score(r[p], 0.0)  # the virtual draw against a phantom at 0
            observed, expected, info = 0.5, e0, e0 * (1 - e0)
            for a, b, s in games:
                if p not in (a, b):
                    continue
                opp, score = (b, s) if a == p else (a, 1.0 - s)
                e = expected_score(r[p], r[opp])
                observed += score
                expected += e
                info += e * (1 - e)
            step = (observed - expected) / (_LN10_400 * info)  # one Newton step per player
            r[p] += step
            moved = max(moved, abs(step))
        if moved < 1e-6:
            break
    shift = mean_elo - sum(r.values()) / len(r)
    return {p: v + shift for p, v in r.items()}
