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
