"""Nim metrics -> one leaderboard entry per run, grouped by opponent; win rate is already a
percentage, so it is also the overview value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluators.entries import EntryValues, interval, num, slim


def entry_values(metrics: Mapping[str, Any], benchmark_name: str) -> list[EntryValues]:
    score, se = num(metrics.get("score")), num(metrics.get("score_se"))
    lo, hi = interval(metrics, "score_ci95", score, se)
    return [
        EntryValues(
            part="",
            group=str(metrics.get("opponent") or "optimal"),
            label=benchmark_name,
            score=score,
            score_se=se,
            score_lo=lo,
            score_hi=hi,
            norm=score,
            norm_se=se,
            summary=slim(metrics),
        )
    ]
