"""Leaderboard entry values: what a family's run metrics become on the leaderboard. Each family's
``entries`` function (named in the registry) maps its typed metrics to a list of EntryValues (a
HiPhO suite run gives one per exam); the platform stores them as LeaderboardEntry rows. Pure."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
# metrics keys that are bulky or per item; never copied into LeaderboardEntry.summary
BULKY = {"problems", "exams", "matrix", "per_item", "items", "positions"}


@dataclass(frozen=True)
class EntryValues:
    part: str  # which part of the run ("" for the whole run; a HiPhO suite: the exam id)
    group: str  # the column or table the entry belongs to on the family page
    label: str
    score: float | None
    score_se: float | None
    score_lo: float | None
    score_hi: float | None
    norm: float | None  # the score on a 0-100 scale for the overview (None: not comparable)
    norm_se: float | None
    summary: dict[str, Any]  # the slim metrics the family page and API show


def num(value: Any) -> float | None:
    """A finite number, or None (bools, strings, NaN and infinities are not scores)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def interval(
    metrics: Mapping[str, Any], key: str, score: float | None, se: float | None
) -> tuple[float | None, float | None]:
    """The stored 95 % interval under ``key``, else score ± 1.96 SE, else (None, None)."""
    ci = metrics.get(key)
    if isinstance(ci, (list, tuple)) and len(ci) == 2:
        lo, hi = num(ci[0]), num(ci[1])
        if lo is not None and hi is not None:
            return lo, hi
    if score is not None and se is not None:
        return score - Z95 * se, score + Z95 * se
    return None, None


def slim(metrics: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metrics.items() if k not in BULKY}
