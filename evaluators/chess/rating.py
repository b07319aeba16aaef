"""Elo from games: the measured ladder, the adaptive choice of opponent, the run's rating.

A games benchmark names a ladder file (data/chess_ladder/, written by
bench/chess_elo_levels.py): the builtin opponents' round robin at the games' own settings.
Its fit (games/chess/ladder.py) rates the opponents; the model is rated against them with the
ladder's uncertainty included (games/chess/elo.py). With ``"opponents": "ladder"`` the games
are adaptive: each game, when it starts, plays the rung nearest the estimate from the games
of the run that have finished. Opponents off the ladder (other models) count only with an
``elo`` given in the config; a UCI_Elo setting is never taken for a rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from evaluators.base import ConfigError, StoredOutcome
from games.chess.elo import WDL, Opponents, Rating, Record, next_opponent, rate
from games.chess.ladder import Ladder, LadderError, LadderFit, fit_ladder, ladder_opponents

DEFAULT_LADDER = "data/chess_ladder/stockfish-nodes20000.json"
LADDER = "ladder"  # the opponent name of adaptive games ("ladder#007")
DEFAULT_LADDER_GAMES = 60  # about +-140 for a player near the ladder's middle (simulated)


@lru_cache(maxsize=8)
def _load(path: str, mtime: float, size: int) -> tuple[Ladder, LadderFit]:
    ladder = Ladder.load(path)
    return ladder, fit_ladder(ladder)


def load_ladder(path: Path) -> tuple[Ladder, LadderFit]:
    if not path.is_file():
        raise ConfigError(f"ladder: file not found: {path}")
    st = path.stat()
    try:
        return _load(str(path), st.st_mtime, st.st_size)
    except LadderError as exc:
        raise ConfigError(f"ladder: {exc}") from None


def rungs(fit: LadderFit) -> list[str]:
    """The rated ladder players an adaptive game may be played against."""
    return list(fit.ratings)


def opponents(fit: LadderFit | None, config: Mapping[str, Any]) -> Opponents:
    """Every rated opponent: the ladder's rungs and opponents given an explicit ``elo``."""
    explicit = {
        o["name"]: float(o["elo"])
        for o in config.get("opponents") or []
        if isinstance(o, dict) and o.get("elo_given") and o.get("elo") is not None
    }
    if fit is None:
        return Opponents.fixed(explicit)
    return ladder_opponents(fit, explicit)


def records(rows: Sequence[Mapping[str, Any]]) -> list[Record]:
    """Per-opponent W/D/L from finished games' details (``opponent``, ``points``)."""
    tally: dict[str, list[float]] = {}
    for row in rows:
        opp, pts = row.get("opponent"), row.get("points")
        if opp is None or pts is None:
            continue
        tally.setdefault(str(opp), []).append(float(pts))
    return [Record(o, **WDL.of_points(p).counts()) for o, p in sorted(tally.items())]


def choose_opponent(fit: LadderFit, finished: Sequence[Mapping[str, Any]]) -> str:
    """The adaptive design's next opponent, from the run's finished games."""
    opp = ladder_opponents(fit)
    done = [r for r in records(finished) if r.opponent in opp.names]
    return next_opponent(done, opp, rungs(fit))


def rating_metrics(
    fit: LadderFit | None,
    ladder: Ladder | None,
    config: Mapping[str, Any],
    done: Sequence[StoredOutcome],
) -> dict[str, Any]:
    """The run's Elo, its interval, and every pairing's W/D/L next to the opponent's rating."""
    recs = records([o.details for o in done])
    opp = opponents(fit, config)
    rated = [r for r in recs if r.opponent in opp.names]
    rating: Rating | None = rate(rated, opp) if rated else None
    pairings = []
    for r in recs:
        known = r.opponent in opp.names
        pairings.append(
            {
                "opponent": r.opponent,
                **r.counts(),
                "rating": round(opp.mean(r.opponent), 1) if known else None,
                "rating_se": round(opp.se(r.opponent), 1) if known else None,
            }
        )
    out: dict[str, Any] = {
        "elo": round(rating.elo, 1) if rating else None,
        "elo_ci95": [
            None if rating.lo is None else round(rating.lo, 1),
            None if rating.hi is None else round(rating.hi, 1),
        ]
        if rating
        else None,
        "elo_censored": rating.censored if rating else None,
        "elo_games": rating.games if rating else 0,
        "unrated_games": sum(r.games for r in recs) - (rating.games if rating else 0),
        "pairings": pairings,
    }
    if ladder is not None and fit is not None:
        out["ladder"] = ladder_summary(ladder, fit)
    return out


def ladder_summary(ladder: Ladder, fit: LadderFit) -> dict[str, Any]:
    """What the chess page shows of the ladder: who, rated how, on what games."""
    return {
        "engine": ladder.engine,
        "limit": ladder.limit,
        "measured": ladder.measured,
        "centre": list(ladder.centre),
        "centre_elo": ladder.centre_elo,
        "players": [
            {
                "name": n,
                "rating": round(fit.ratings[n], 1) if n in fit.ratings else None,
                "se": round(fit.se(n) or 0.0, 1) if n in fit.ratings else None,
                "points": fit.points[n],
                "games": fit.games[n],
            }
            for n in ladder.players
        ],
        "pairs": [{"a": p.a, "b": p.b, **p.counts()} for p in ladder.pairs],
        "unrated": list(fit.unrated),
    }
