"""A player's Elo against opponents whose ratings are themselves uncertain (the measured ladder).

The model: a game against an opponent rated r is scored with the Elo expectation
1 / (1 + 10^((r - elo) / 400)), a draw counting half a win and half a loss. The opponents'
ratings are not known exactly: the ladder's fit gives their means and covariance
(games/chess/ladder.py). The likelihood of the player's results is averaged over draws of
the opponents' ratings from that normal distribution (a fixed set of draws, so the same
results always give the same rating), which widens the interval by the ladder's own
uncertainty.

The estimate is the maximum of that likelihood and the 95 % interval is the likelihood-ratio
interval (every rating whose log-likelihood is within chi2(1, 0.95) / 2 of the maximum). At a
0 % or 100 % score the maximum is at infinity: the interval is then open on that side (only a
bound is known) and the point shown is the rating at which such a clean sweep has
probability one half (a median-unbiased value), never a number pulled to the middle by a
made-up draw. The adaptive design (``next_opponent``) plays the next game against the rung
rated nearest the current estimate, where a game tells the most.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np

CHI2_95 = 3.841458820694124  # chi-square (1 degree of freedom) 0.95 quantile
GRID_MARGIN = 1500.0  # ratings searched beyond the opponents'
LN10 = math.log(10.0)


@dataclass(frozen=True)
class WDL:
    """Wins, draws and losses counted from one player's side; a draw is worth half a point."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @classmethod
    def of_points(cls, points: Iterable[float]) -> WDL:
        """The tally of games scored 1 (win), 0.5 (draw) or 0 (loss); any other value is an error."""
        t = [0, 0, 0]
        for p in points:
            if p not in (1.0, 0.5, 0.0):
                raise ValueError(f"a game scores 1, 0.5 or 0 points, not {p!r}")
            t[0 if p == 1.0 else 1 if p == 0.5 else 2] += 1
        return cls(*t)

    def counts(self) -> dict[str, int]:
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses}


@dataclass(frozen=True)
class _Versus:
    opponent: str


# Dataclass fields follow the reversed MRO, so the name comes first: Record("b", wins=2).
@dataclass(frozen=True)
class Record(WDL, _Versus):
    """The player's games against one opponent."""


@dataclass(frozen=True)
class Opponents:
    """Opponent ratings: means and covariance (zero for an opponent rated exactly)."""

    names: tuple[str, ...]
    means: tuple[float, ...]
    cov: tuple[tuple[float, ...], ...]

    @classmethod
    def fixed(cls, ratings: Mapping[str, float]) -> Opponents:
        names = tuple(ratings)
        return cls(
            names,
            tuple(float(ratings[n]) for n in names),
            tuple(tuple(0.0 for _ in names) for _ in names),
        )

    def mean(self, name: str) -> float:
        return self.means[self.names.index(name)]

    def se(self, name: str) -> float:
        i = self.names.index(name)
        return math.sqrt(max(0.0, self.cov[i][i]))


@dataclass(frozen=True)
class Rating:
    elo: float
    lo: float | None  # None: unbounded below (every game lost)
    hi: float | None  # None: unbounded above (every game won)
    games: int
    points: float
    censored: Literal["below", "above"] | None = None

    @property
    def half_width(self) -> float | None:
        return None if self.lo is None or self.hi is None else (self.hi - self.lo) / 2.0

    def covers(self, value: float) -> bool:
        return (self.lo is None or self.lo <= value) and (self.hi is None or value <= self.hi)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def expected_score(elo: float, opponent_elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent_elo - elo) / 400.0))


def _rating_draws(opponents: Opponents, names: Sequence[str], n: int, seed: int) -> np.ndarray:
    """``n`` joint draws (n x len(names)) of the named opponents' ratings."""
    idx = [opponents.names.index(x) for x in names]
    mean = np.array([opponents.means[i] for i in idx])
    cov = np.array([[opponents.cov[i][j] for j in idx] for i in idx])
    if not np.any(cov):
        return np.tile(mean, (1, 1))
    vals, vecs = np.linalg.eigh(cov)  # a square root that tolerates a singular covariance
    root = vecs * np.sqrt(np.clip(vals, 0.0, None))
    z = np.random.default_rng(seed).standard_normal((n, len(idx)))
    return mean + z @ root.T


def log_likelihood(
    records: Sequence[Record],
    opponents: Opponents,
    grid: np.ndarray,
    *,
    draws: int = 256,
    seed: int = 0,
) -> np.ndarray:
    """log of the likelihood of the results at each rating of ``grid``, averaged over draws
    of the opponents' ratings."""
    played = [r for r in records if r.games]
    names = [r.opponent for r in played]
    ratings = _rating_draws(opponents, names, draws, seed)  # K x J
    s = np.array([r.points for r in played])
    f = np.array([r.games - r.points for r in played])
    # x = (elo - opponent) * ln10 / 400; log p = -softplus(-x), log(1 - p) = -softplus(x)
    x = (grid[:, None, None] - ratings[None, :, :]) * (LN10 / 400.0)  # G x K x J
    ll = -(s * np.logaddexp(0.0, -x) + f * np.logaddexp(0.0, x)).sum(axis=2)  # G x K
    top = ll.max(axis=1, keepdims=True)
    return top[:, 0] + np.log(np.exp(ll - top).mean(axis=1))


def _crossing(grid: np.ndarray, dev: np.ndarray, i: int, step: int) -> float | None:
    """Where ``dev`` (2 x log-likelihood drop) first reaches CHI2_95 walking from ``i``."""
    j = i
    while 0 <= j + step < len(grid):
        if dev[j + step] >= CHI2_95:
            a, b = dev[j], dev[j + step]
            t = (CHI2_95 - a) / (b - a) if b != a else 0.0
            return float(grid[j] + t * (grid[j + step] - grid[j]))
        j += step
    return None


def rate(
    records: Sequence[Record],
    opponents: Opponents,
    *,
    draws: int = 256,
    seed: int = 0,
    step: float = 2.0,
) -> Rating:
    """The player's rating and 95 % likelihood-ratio interval (see the module doc)."""
    played = [r for r in records if r.games]
    if not played:
        raise ValueError("a rating needs at least one game")
    for r in played:
        if r.opponent not in opponents.names:
            raise ValueError(f"opponent {r.opponent!r} has no rating")
        if min(r.wins, r.draws, r.losses) < 0:
            raise ValueError(f"negative game count against {r.opponent!r}")
    means = [opponents.mean(r.opponent) for r in played]
    sd = max((opponents.se(r.opponent) for r in played), default=0.0)
    grid = np.arange(
        min(means) - GRID_MARGIN - 4 * sd, max(means) + GRID_MARGIN + 4 * sd + step, step
    )
    ll = log_likelihood(played, opponents, grid, draws=draws, seed=seed)
    games = sum(r.games for r in played)
    points = sum(r.points for r in played)
    if points in (0.0, float(games)):
        # a clean sweep: the likelihood rises to its supremum at the edge of the grid
        below = points == 0.0
        edge = ll[0] if below else ll[-1]
        half = edge - math.log(2.0)
        dev = 2.0 * (edge - ll)
        order = range(len(grid)) if below else range(len(grid) - 1, -1, -1)
        median = next(float(grid[i]) for i in order if ll[i] <= half)
        bound = _crossing(grid, dev, 0 if below else len(grid) - 1, 1 if below else -1)
        return Rating(
            elo=median,
            lo=None if below else bound,
            hi=bound if below else None,
            games=games,
            points=points,
            censored="below" if below else "above",
        )
    i = int(np.argmax(ll))
    elo = float(grid[i])
    if 0 < i < len(grid) - 1:  # parabolic refinement of the maximum
        a, b, c = ll[i - 1], ll[i], ll[i + 1]
        denom = a - 2 * b + c
        if denom < 0:
            elo += step * 0.5 * (a - c) / denom
    dev = 2.0 * (ll.max() - ll)
    return Rating(
        elo=float(elo),
        lo=_crossing(grid, dev, i, -1),
        hi=_crossing(grid, dev, i, 1),
        games=games,
        points=points,
    )


def next_opponent(
    records: Sequence[Record], opponents: Opponents, candidates: Sequence[str]
) -> str:
    """The rung to play next: rated nearest the current estimate (the middle rung before any
    game), the one with fewer games against it on a tie."""
    if not candidates:
        raise ValueError("no opponent to choose from")
    played = {r.opponent: r.games for r in records}
    if any(r.games for r in records):
        # where to play next needs only a rough estimate: the rungs at their mean ratings
        target = rate(
            records, Opponents.fixed({n: opponents.mean(n) for n in opponents.names}), step=10.0
        ).elo
    else:
        ordered = sorted(opponents.mean(c) for c in candidates)
        target = ordered[(len(ordered) - 1) // 2]
    return min(
        candidates, key=lambda c: (round(abs(opponents.mean(c) - target)), played.get(c, 0), c)
    )
