"""The Elo ladder: builtin opponents whose ratings are measured here, not assumed.

Stockfish's UCI_Elo was fitted to engine ratings at a time control, and at the node limit the
games use the levels compress, so the settings are not ratings. The ladder's players play a
round robin at the games' settings (bench/chess_elo_levels.py), the W/D/L of every pairing is
stored in a ladder file with the benchmark, and the ratings are the maximum-likelihood fit of
the Elo (logistic, base 10, scale 400) model to those counts, a draw counting half a win and
half a loss. Only differences are identified, so one player (the anchor) is fixed at a stated
value; the covariance of the others is the inverse of the observed information, so every
rating comes with its uncertainty relative to the anchor.

A player who scored 0 % or 100 % over all its games has no finite rating; it is left out of
the fit (and listed as unrated) rather than given a made-up number.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from games.chess.elo import WDL, Opponents

C = math.log(10) / 400.0  # d/dr of the logistic's argument


class LadderError(ValueError):
    """A ladder file or record is malformed; the message names the field."""


@dataclass(frozen=True)
class _Pair:
    a: str
    b: str


# Fields in the order a, b, wins, draws, losses (reversed MRO), as the ladder file has them.
@dataclass(frozen=True)
class PairRecord(WDL, _Pair):
    """The games of ``a`` against ``b``, counted from ``a``'s side."""


@dataclass(frozen=True)
class Ladder:
    players: tuple[str, ...]
    pairs: tuple[PairRecord, ...]
    engine: str
    limit: str  # SearchLimit.key() the games were played at
    anchor: str  # the player held fixed while fitting (any rated player: only differences matter)
    anchor_elo: float
    measured: str = ""
    games_per_pair: int = 0
    # the ratings are then shifted so that these players' mean is centre_elo (the scale's
    # convention); empty: the anchor keeps anchor_elo
    centre: tuple[str, ...] = ()
    centre_elo: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["players"] = list(self.players)
        d["pairs"] = [asdict(p) for p in self.pairs]
        d["centre"] = list(self.centre)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, source: str = "ladder") -> Ladder:
        try:
            players = tuple(str(p) for p in d["players"])
            pairs = tuple(
                PairRecord(
                    str(p["a"]), str(p["b"]), int(p["wins"]), int(p["draws"]), int(p["losses"])
                )
                for p in d["pairs"]
            )
            ladder = cls(
                players=players,
                pairs=pairs,
                engine=str(d["engine"]),
                limit=str(d["limit"]),
                anchor=str(d["anchor"]),
                anchor_elo=float(d["anchor_elo"]),
                measured=str(d.get("measured", "")),
                games_per_pair=int(d.get("games_per_pair", 0)),
                centre=tuple(str(x) for x in d.get("centre", ())),
                centre_elo=float(d["centre_elo"]) if d.get("centre_elo") is not None else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LadderError(f"{source}: malformed ladder ({type(exc).__name__}: {exc})") from None
        for p in ladder.pairs:
            if p.a not in players or p.b not in players or p.a == p.b:
                raise LadderError(f"{source}: pair {p.a} vs {p.b} names a player not in players")
            if min(p.wins, p.draws, p.losses) < 0:
                raise LadderError(f"{source}: pair {p.a} vs {p.b} has a negative count")
        if ladder.anchor not in players:
            raise LadderError(f"{source}: anchor {ladder.anchor!r} is not a player")
        if any(c not in players for c in ladder.centre) or (
            ladder.centre and ladder.centre_elo is None
        ):
            raise LadderError(f"{source}: centre must name players and come with centre_elo")
        return ladder

    @classmethod
    def load(cls, path: str | Path) -> Ladder:
        p = Path(path)
        try:
            data = json.loads(p.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise LadderError(f"{p}: cannot read ladder file: {exc}") from None
        return cls.from_dict(data, source=str(p))


@dataclass(frozen=True)
class LadderFit:
    """Ratings of the rated players; ``cov`` is their covariance (the anchor's row is zero)."""

    ratings: dict[str, float]
    cov: dict[tuple[str, str], float]  # under the scale's convention (anchor or centre fixed)
    points: dict[str, float]
    games: dict[str, int]
    unrated: tuple[str, ...]
    anchor: str

    @property
    def rated(self) -> list[str]:
        return list(self.ratings)

    def se(self, name: str) -> float | None:
        v = self.cov[(name, name)]
        return None if v <= 1e-9 else math.sqrt(v)

    def matrix(self, names: Sequence[str]) -> np.ndarray:
        return np.array([[self.cov[(a, b)] for b in names] for a in names], dtype=float)


def expected(ra: float, rb: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def _extremes(pairs: Sequence[PairRecord], players: Sequence[str]) -> set[str]:
    out = set()
    for name in players:
        pts = games = 0.0
        for p in pairs:
            if name in (p.a, p.b):
                games += p.games
                pts += p.points if p.a == name else p.games - p.points
        if games and pts in (0.0, games):
            out.add(name)
    return out


_SEPARATED = (
    "the results separate the players into groups that never score against each other: the "
    "ratings have no finite maximum-likelihood fit (play more games between the groups)"
)


def fit_ladder(ladder: Ladder, *, iterations: int = 200) -> LadderFit:
    """Maximum-likelihood ratings of the ladder (anchor fixed) and their covariance."""
    players = list(ladder.players)
    pairs = [p for p in ladder.pairs if p.games]
    unrated: set[str] = set()
    while True:  # dropping a 0 % player can leave another at 0 % against the rest
        drop = _extremes(
            [p for p in pairs if p.a not in unrated and p.b not in unrated],
            [x for x in players if x not in unrated],
        )
        if not drop:
            break
        unrated |= drop
    rated = [x for x in players if x not in unrated]
    if any(x in unrated for x in ladder.centre):
        # the scale's convention (the centre players' mean) would silently change meaning
        raise LadderError(
            f"centre player(s) {sorted(unrated & set(ladder.centre))} scored 0 % or 100 %: "
            "no finite ratings on the stated scale"
        )
    anchor = ladder.anchor
    if anchor in unrated:
        # with a centre the anchor is only a computational pivot: any rated centre player will do
        anchor = next((x for x in ladder.centre if x in rated), "")
        if not anchor:
            raise LadderError(f"the anchor {ladder.anchor} scored 0 % or 100 %: no finite ratings")
    used = [p for p in pairs if p.a in rated and p.b in rated]
    free = [x for x in rated if x != anchor]
    idx = {x: i for i, x in enumerate(free)}
    r = dict.fromkeys(rated, ladder.anchor_elo)
    info = np.zeros((len(free), len(free)))
    for _ in range(iterations):
        grad = np.zeros(len(free))
        info = np.zeros((len(free), len(free)))
        for p in used:
            e = expected(r[p.a], r[p.b])
            g, h = C * (p.points - p.games * e), C * C * p.games * e * (1 - e)
            for x, sign in ((p.a, 1.0), (p.b, -1.0)):
                if x in idx:
                    grad[idx[x]] += sign * g
                    info[idx[x], idx[x]] += h
            if p.a in idx and p.b in idx:
                info[idx[p.a], idx[p.b]] -= h
                info[idx[p.b], idx[p.a]] -= h
        if not free:
            break
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            raise LadderError(_SEPARATED) from None
        step = np.clip(step, -400.0, 400.0)  # damped: far from the optimum a full step overshoots
        for x, i in idx.items():
            r[x] += float(step[i])
        if float(np.max(np.abs(step))) < 1e-7:
            break
    else:
        raise LadderError(_SEPARATED)
    if max(r.values()) - min(r.values()) > 6000:
        raise LadderError(_SEPARATED)
    # The covariance of the ratings with the anchor held fixed is the inverse of the free
    # players' information. A centre (a'r = c) is the same fit shifted along (1, ..., 1); the
    # shift is linear in the ratings, so its covariance is P S P' with P = I - 1 a' / (a' 1).
    cov_free = np.linalg.inv(info) if free else np.zeros((0, 0))
    full = np.zeros((len(rated), len(rated)))
    pos = {x: i for i, x in enumerate(rated)}
    for a_ in free:
        for b_ in free:
            full[pos[a_], pos[b_]] = cov_free[idx[a_], idx[b_]]
    centre = [x for x in ladder.centre if x in pos]
    if centre:
        weights = np.zeros(len(rated))
        for x in centre:
            weights[pos[x]] = 1.0 / len(centre)
        proj = np.eye(len(rated)) - np.outer(np.ones(len(rated)), weights)
        full = proj @ full @ proj.T
        assert ladder.centre_elo is not None
        shift = ladder.centre_elo - sum(r[x] for x in centre) / len(centre)
        r = {x: v + shift for x, v in r.items()}
    cov: dict[tuple[str, str], float] = {}
    for a_ in rated:
        for b_ in rated:
            cov[(a_, b_)] = float(full[pos[a_], pos[b_]])
    points = {x: 0.0 for x in players}
    games = {x: 0 for x in players}
    for p in pairs:
        points[p.a] += p.points
        points[p.b] += p.games - p.points
        games[p.a] += p.games
        games[p.b] += p.games
    return LadderFit(
        ratings={x: r[x] for x in rated},
        cov=cov,
        points=points,
        games=games,
        unrated=tuple(x for x in players if x in unrated),
        anchor=anchor,
    )


def ladder_opponents(fit: LadderFit, extra: Mapping[str, float] | None = None) -> Opponents:
    """The rated rungs as opponents (means and covariance), plus opponents rated exactly."""
    names = list(fit.ratings) + [n for n in (extra or {}) if n not in fit.ratings]
    means = [fit.ratings[n] if n in fit.ratings else float((extra or {})[n]) for n in names]
    cov = [[fit.cov.get((a, b), 0.0) for b in names] for a in names]
    return Opponents(tuple(names), tuple(means), tuple(tuple(row) for row in cov))
