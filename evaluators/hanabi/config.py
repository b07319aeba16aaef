"""Benchmark configuration of the Hanabi family: validation, items, and who sits where."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from evaluators.base import ConfigError, ItemKey
from evaluators.hanabi.prompts import SETTINGS

FALLBACKS = ("discard_oldest", "first_legal", "random_legal")
# rollouts: sampled worlds per stage (selection, then as many to estimate the regret);
# max_candidates: 60 covers every legal move at 2-5 players (hints included)
DEFAULT_REGRET = {"enabled": False, "rollouts": 32, "team": "iggi", "max_candidates": 60}
_KEYS = {
    "players",
    "setting",
    "mode",
    "partners",
    "seeds",
    "fallback",
    "max_reasks",
    "regret",
    "max_reply_tokens",
}
_ITEM = re.compile(r"seed-(\d+)(?:@(.+))?")


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(config) - _KEYS
    if unknown:
        raise ConfigError(f"unknown field(s) {sorted(unknown)}; allowed: {sorted(_KEYS)}")
    players = config.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise ConfigError(f"players: must be an integer 2-5, got {players!r}")
    setting = config.get("setting", "watson")
    if setting not in SETTINGS and setting is not None:
        raise ConfigError(f"setting: must be one of {SETTINGS} or null, got {setting!r}")
    mode = config.get("mode", "self")
    if mode not in ("self", "cross"):
        raise ConfigError(f"mode: must be 'self' or 'cross', got {mode!r}")
    partners = config.get("partners", [])
    if not isinstance(partners, list) or not all(isinstance(p, str) and p for p in partners):
        raise ConfigError("partners: must be a list of model slugs")
    if mode == "cross" and not partners:
        raise ConfigError("partners: cross-play needs at least one partner model slug")
    if mode == "self" and partners:
        raise ConfigError("partners: self-play takes no partners (use mode 'cross')")
    seeds = config.get("seeds")
    if seeds is not None:
        ok = (
            isinstance(seeds, list)
            and seeds
            and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds)
        )
        if not ok or len(set(seeds)) != len(seeds):
            raise ConfigError("seeds: must be a non-empty list of distinct non-negative integers")
    fallback = config.get("fallback", "discard_oldest")
    if fallback not in FALLBACKS:
        raise ConfigError(f"fallback: must be one of {FALLBACKS}, got {fallback!r}")
    max_reasks = config.get("max_reasks", 3)
    if not isinstance(max_reasks, int) or not 0 <= max_reasks <= 10:
        raise ConfigError(f"max_reasks: must be an integer 0-10, got {max_reasks!r}")
    regret = {**DEFAULT_REGRET, **(config.get("regret") or {})}
    if set(regret) - set(DEFAULT_REGRET):
        raise ConfigError(f"regret: unknown field(s) {sorted(set(regret) - set(DEFAULT_REGRET))}")
    if not isinstance(regret["enabled"], bool):
        raise ConfigError("regret.enabled: must be true or false")
    for key, low in (("rollouts", 2), ("max_candidates", 2)):
        value = regret[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= 1000:
            raise ConfigError(f"regret.{key}: must be an integer {low}-1000, got {value!r}")
    from games.hanabi.bots import BOT_CLASSES

    if regret["team"] not in BOT_CLASSES:
        raise ConfigError(
            f"regret.team: unknown bot {regret['team']!r}; known {sorted(BOT_CLASSES)}"
        )
    out: dict[str, Any] = {
        "players": players,
        "setting": setting,
        "mode": mode,
        "partners": list(partners),
        "fallback": fallback,
        "max_reasks": max_reasks,
        "regret": regret,
    }
    if seeds is not None:
        out["seeds"] = list(seeds)
    if "max_reply_tokens" in config:
        out["max_reply_tokens"] = int(config["max_reply_tokens"])
    return out


def item_keys(config: Mapping[str, Any], samples: int) -> list[ItemKey]:
    """One item per game. Seeds come from the config, or 0..samples-1; with several
    cross-play partners each seed is played once per partner."""
    seeds = config.get("seeds") or list(range(max(samples, 1)))
    partners = config.get("partners") or []
    if len(partners) <= 1:
        return [ItemKey(f"seed-{s}") for s in seeds]
    return [ItemKey(f"seed-{s}@{p}") for p in partners for s in seeds]


def parse_item_key(key: str, config: Mapping[str, Any]) -> tuple[int, str | None]:
    m = _ITEM.fullmatch(key)
    if not m:
        raise ConfigError(f"item key {key!r}: expected 'seed-<n>' or 'seed-<n>@<partner>'")
    partners = config.get("partners") or []
    partner = m[2] if m[2] is not None else (partners[0] if partners else None)
    return int(m[1]), partner


def seat_assignment(players: int, seed: int, model: str, partner: str | None) -> list[str]:
    """Seat -> agent slug. Self-play: every seat the model. Cross-play ("one A + rest B"):
    the model's seat rotates with the seed, every other seat is the partner."""
    if partner is None:
        return [model] * players
    a_seat = seed % players
    return [model if s == a_seat else partner for s in range(players)]
