"""Trajectories as JSONL: one line per game, self-contained (seed, seats, every move)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import IO, Any

EXPORT_VERSION = 1


def trajectory(details: Mapping[str, Any], scores: Mapping[str, Any], *, key: str,
               run: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One game's record for export, from a stored outcome's details and scores."""
    return {
        "format": f"podium-hanabi-trajectory/{EXPORT_VERSION}",
        "item": key,
        **({"run": dict(run)} if run else {}),
        "seed": details.get("seed"),
        "players": details.get("players"),
        "setting": details.get("setting"),
        "mode": details.get("mode"),
        "seat_models": details.get("seat_models"),
        "scores": dict(scores),
        "moves": [
            {k: m.get(k) for k in ("turn", "seat", "agent", "move", "move_index", "fallback",
                                   "rule", "prompt_hash", "raw_replies", "errors", "reason",
                                   "regret")}
            for m in details.get("moves", [])
        ],
    }


def write_jsonl(records: Iterable[Mapping[str, Any]], out: IO[str]) -> int:
    """Write one JSON object per line; returns how many lines were written."""
    n = 0
    for rec in records:
        out.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
        n += 1
    return n
