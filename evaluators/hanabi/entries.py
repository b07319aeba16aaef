"""Hanabi metrics -> one leaderboard entry per run, grouped by mode (self / cross); the overview
scale is the fireworks score as a percentage of 25."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluators.entries import EntryValues, interval, num, slim

HANABI_MAX = 25.0


def entry_values(metrics: Mapping[str, Any], benchmark_name: str) -> list[EntryValues]:
    score, se = num(metrics.get("score")), num(metrics.get("score_se"))
    lo, hi = interval(metrics, "score_ci95", score, se)
    mode = str(metrics.get("mode") or "self")
    players = metrics.get("players")
    setting = metrics.get("setting") or "bot"
    label = f"{players}p {setting}" if players else benchmark_name
    if mode == "cross":
        partners = metrics.get("partners") or []
        label = f"{players}p with " + ", ".join(str(p) for p in partners)
    return [
        EntryValues(
            part="",
            group=mode,
            label=label,
            score=score,
            score_se=se,
            score_lo=lo,
            score_hi=hi,
            norm=100.0 * score / HANABI_MAX if score is not None else None,
            norm_se=100.0 * se / HANABI_MAX if se is not None else None,
            summary=slim(metrics),
        )
    ]
