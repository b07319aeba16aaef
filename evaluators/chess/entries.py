"""Chess metrics -> one leaderboard entry per run, grouped by task. Move tasks and puzzles are
percentages (on the overview as they are); Elo from games is not on a 0-100 scale, so it has
no overview value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluators.entries import EntryValues, interval, num, slim


def entry_values(metrics: Mapping[str, Any], benchmark_name: str) -> list[EntryValues]:
    task = str(metrics.get("task") or "unknown")
    score, se = num(metrics.get("score")), num(metrics.get("score_se"))
    if task == "games":
        lo, hi = interval(metrics, "elo_ci95", score, se)
        norm = norm_se = None
    else:
        lo, hi = interval(metrics, "score_ci95", score, se)
        norm, norm_se = score, se
    return [
        EntryValues(
            part="",
            group=task,
            label=benchmark_name,
            score=score,
            score_se=se,
            score_lo=lo,
            score_hi=hi,
            norm=norm,
            norm_se=norm_se,
            summary=slim(metrics),
        )
    ]
