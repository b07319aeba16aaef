"""Benchmark configuration of the chess family: validation, defaults, data paths.

    {"task": "best_move" | "mc_best" | "mc_worst" | "legal_moves" | "puzzles" | "games",
     "positions": "data/chess_demo/positions.json",          # position tasks
     "puzzles": {"csv": "shared:lichess/lichess_puzzles_sample_2k.csv", "limit": 50,
                 "min_rating": null, "max_rating": null},   # puzzles
     "opponents": [{"player": "stockfish-elo-1350"}, {"model": "other-slug", "elo": 1500}],
     "games_per_opponent": 2, "max_moves": 200,             # games
     "opponents": "ladder", "games": 60,                     # adaptive games against the ladder
     "ladder": "data/chess_ladder/stockfish-nodes20000.json",  # measured opponent ratings
     "engine": {"nodes": 20000},                             # analysis limit (depth/time optional)
     "rethinks": 3, "history": true, "ascii_board": true, "percentile": true}

Relative paths are from the repository root; "shared:" paths from the shared data directory
(PODIUM_SHARED_DATA, default <repo>/../shared/data), which is never copied into the repo.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from evaluators.base import ConfigError
from evaluators.chess.players import BUILTINS, MAX_RETHINKS
from evaluators.chess.rating import DEFAULT_LADDER, DEFAULT_LADDER_GAMES, load_ladder
from evaluators.paths import resolve_path
from games.chess.engine import SearchLimit
from games.chess.match import MAX_MOVES
from games.chess.positions import PositionSet, PositionSetError, load_position_set
from games.chess.puzzles import Puzzle, PuzzleFormatError, load_puzzles

TASKS = ("best_move", "mc_best", "mc_worst", "legal_moves", "puzzles", "games")
POSITION_TASKS = ("best_move", "mc_best", "mc_worst", "legal_moves")
DEFAULT_POSITIONS = "data/chess_demo/positions.json"


def _file_key(path: Path) -> tuple[str, float, int]:
    st = path.stat()
    return str(path), st.st_mtime, st.st_size


@lru_cache(maxsize=16)
def _positions_cached(key: tuple[str, float, int]) -> PositionSet:
    return load_position_set(key[0])


@lru_cache(maxsize=8)
def _puzzles_cached(
    key: tuple[str, float, int], limit: int | None, lo: int | None, hi: int | None
) -> tuple[Puzzle, ...]:
    return tuple(load_puzzles(key[0], limit=limit, min_rating=lo, max_rating=hi))


def position_set(config: Mapping[str, Any]) -> PositionSet:
    path = resolve_path(config["positions"])
    if not path.is_file():
        raise ConfigError(f"positions: file not found: {path}")
    try:
        return _positions_cached(_file_key(path))
    except PositionSetError as exc:
        raise ConfigError(f"positions: {exc}") from None


def puzzles(config: Mapping[str, Any]) -> tuple[Puzzle, ...]:
    spec = config["puzzles"]
    path = resolve_path(spec["csv"])
    if not path.is_file():
        raise ConfigError(f"puzzles.csv: file not found: {path}")
    try:
        return _puzzles_cached(
            _file_key(path),
            spec.get("limit") or None,
            spec.get("min_rating"),
            spec.get("max_rating"),
        )
    except PuzzleFormatError as exc:
        raise ConfigError(f"puzzles.csv: {exc}") from None


def _int(config: Mapping[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = config.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ConfigError(f"{name}: must be an integer in [{lo}, {hi}], got {value!r}")
    return value


def _bool(config: Mapping[str, Any], name: str, default: bool) -> bool:
    value = config.get(name, default)
    if not isinstance(value, bool):
        raise ConfigError(f"{name}: must be true or false, got {value!r}")
    return value


def _opponents(raw: Any) -> list[dict[str, Any]] | str:
    if raw == "ladder":
        return "ladder"
    if not isinstance(raw, list) or not raw:
        raise ConfigError("opponents: a non-empty list is required for the games task")
    out = []
    for i, o in enumerate(raw):
        if isinstance(o, str):
            o = {"player": o}
        if not isinstance(o, dict) or (o.get("player") is None) == (o.get("model") is None):
            raise ConfigError(
                f"opponents[{i}]: give exactly one of 'player' (a builtin) or 'model' (a slug)"
            )
        if o.get("player") is not None and o["player"] not in BUILTINS:
            raise ConfigError(
                f"opponents[{i}].player: unknown builtin {o['player']!r}; expected one of "
                f"{sorted(BUILTINS)}"
            )
        elo = o.get("elo") if o.get("elo_given", True) else None  # re-normalising keeps the flag
        if elo is not None and (isinstance(elo, bool) or not isinstance(elo, (int, float))):
            raise ConfigError(f"opponents[{i}].elo: must be a number, got {elo!r}")
        name = o.get("player") or o["model"]
        # a builtin's rating comes from the measured ladder (set in normalise), never from its
        # UCI_Elo setting; an explicit elo is the caller's statement and is kept
        out.append(
            {
                "player": o.get("player"),
                "model": o.get("model"),
                "elo": elo,
                "name": name,
                "elo_given": bool(o.get("elo_given", elo is not None)),
            }
        )
    names = [o["name"] for o in out]
    if len(set(names)) != len(names):
        raise ConfigError("opponents: each opponent may appear once")
    return out


def _ladder_path(config: Mapping[str, Any], limit: SearchLimit) -> str | None:
    """The ladder file: as given (it must have been measured at this limit), else the bundled
    one when it was measured at this limit, else none (explicit null: none)."""
    if "ladder" in config:
        raw = config["ladder"]
        if raw is None:
            return None
        if not isinstance(raw, str):
            raise ConfigError(f"ladder: must be a path, got {raw!r}")
        ladder = load_ladder(resolve_path(raw))[0]
        if ladder.limit != limit.key():
            raise ConfigError(
                f"ladder: {raw} was measured at {ladder.limit}, but these games use {limit.key()}"
            )
        return raw
    path = resolve_path(DEFAULT_LADDER)
    if path.is_file() and load_ladder(path)[0].limit == limit.key():
        return DEFAULT_LADDER
    return None


def normalise(config: Mapping[str, Any]) -> dict[str, Any]:
    """A complete config with every default filled in, or ConfigError naming the field."""
    if not isinstance(config, Mapping):
        raise ConfigError("config: must be a JSON object")
    task = config.get("task")
    if task not in TASKS:
        raise ConfigError(f"task: must be one of {TASKS}, got {task!r}")
    try:
        limit = SearchLimit.from_dict(config.get("engine"))
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"engine: {exc}") from None
    out: dict[str, Any] = {
        "task": task,
        "engine": {"nodes": limit.nodes, "depth": limit.depth, "time": limit.time},
        "rethinks": _int(config, "rethinks", MAX_RETHINKS, 0, MAX_RETHINKS),
        "history": _bool(config, "history", True),
        "ascii_board": _bool(config, "ascii_board", True),
        "percentile": _bool(config, "percentile", task == "best_move"),
    }
    if task in POSITION_TASKS:
        out["positions"] = str(config.get("positions", DEFAULT_POSITIONS))
    elif task == "puzzles":
        p = config.get("puzzles")
        if not isinstance(p, Mapping) or not isinstance(p.get("csv"), str):
            raise ConfigError("puzzles.csv: the path of a Lichess puzzle CSV is required")
        spec = {
            "csv": p["csv"],
            "limit": p.get("limit"),
            "min_rating": p.get("min_rating"),
            "max_rating": p.get("max_rating"),
        }
        for k in ("limit", "min_rating", "max_rating"):
            if spec[k] is not None and (
                isinstance(spec[k], bool) or not isinstance(spec[k], int) or spec[k] < 0
            ):
                raise ConfigError(f"puzzles.{k}: must be a non-negative integer, got {spec[k]!r}")
        out["puzzles"] = spec
    else:
        out["opponents"] = _opponents(config.get("opponents"))
        out["ladder"] = _ladder_path(config, limit)
        if out["opponents"] == "ladder":
            if out["ladder"] is None:
                raise ConfigError(
                    'ladder: adaptive games (opponents: "ladder") need a ladder file measured '
                    f"at this engine limit ({limit.key()})"
                )
            out["games"] = _int(config, "games", DEFAULT_LADDER_GAMES, 1, 1000)
        else:
            out["games_per_opponent"] = _int(config, "games_per_opponent", 2, 1, 1000)
            fit = load_ladder(resolve_path(out["ladder"]))[1] if out["ladder"] else None
            for o in out["opponents"]:
                if not o["elo_given"]:
                    o["elo"] = (
                        round(fit.ratings[o["name"]], 1)
                        if fit and o["name"] in fit.ratings
                        else None
                    )
        out["max_moves"] = _int(config, "max_moves", MAX_MOVES, 1, 1000)
    unknown = set(config) - set(out) - {"puzzles"}
    if unknown:
        raise ConfigError(f"config: unknown field(s) {sorted(unknown)}")
    # the data must load now, so a bad file is refused when the benchmark is saved
    if task in POSITION_TASKS:
        ps = position_set(out)
        if not usable_positions(ps, task):
            raise ConfigError(
                f"positions: no position of {config.get('positions')} supports task {task}"
            )
    elif task == "puzzles" and not puzzles(out):
        raise ConfigError("puzzles: no puzzle matches the rating filter")
    return out


def usable_positions(ps: PositionSet, task: str) -> list[Any]:
    if task == "mc_best":
        return [p for p in ps.positions if p.mc_best is not None]
    if task == "mc_worst":
        return [p for p in ps.positions if p.mc_worst is not None]
    if task == "legal_moves":
        return [p for p in ps.positions if p.piece_square is not None]
    return list(ps.positions)


def search_limit(config: Mapping[str, Any]) -> SearchLimit:
    return SearchLimit.from_dict(config.get("engine"))
