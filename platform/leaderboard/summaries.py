"""What of Run.metrics each family page needs, and how a score maps to the 0-100 headline scale.

Pure functions over the metrics dict (see the Run.metrics contract); kept apart from the
database code so they are easy to test and to extend when a family adds keys.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

# metrics keys that are bulky or per item; never copied into LeaderboardEntry.summary
_BULKY = {"problems", "exams", "matrix", "per_item", "items", "positions"}
HANABI_MAX = 25.0
Z95 = 1.959963984540054


@dataclass(frozen=True)
class EntryValues:
    part: str
    group: str
    label: str
    score: float | None
    score_se: float | None
    score_lo: float | None
    score_hi: float | None
    norm: float | None
    norm_se: float | None
    summary: dict[str, Any]


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _interval(metrics: dict[str, Any], key: str, score: float | None, se: float | None):
    ci = metrics.get(key)
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and _num(ci[0]) is not None and _num(ci[1]) is not None:
        return _num(ci[0]), _num(ci[1])
    if score is not None and se is not None:
        return score - Z95 * se, score + Z95 * se
    return None, None


def _slim(metrics: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metrics.items() if k not in _BULKY}


def _hipho_values(part: str, metrics: dict[str, Any], fallback_label: str) -> EntryValues:
    score, se = _num(metrics.get("score")), _num(metrics.get("score_se"))
    lo, hi = _interval(metrics, "score_ci95", score, se)
    full = _num(metrics.get("full_marks"))
    norm = norm_se = None
    if score is not None and full:
        norm = 100.0 * score / full
        norm_se = 100.0 * se / full if se is not None else None
    exam_id = str(metrics.get("exam_id") or part or "")
    summary = _slim(metrics)
    if isinstance(metrics.get("problems"), dict):
        summary["n_problems"] = len(metrics["problems"])
    return EntryValues(
        part=part, group=exam_id, label=str(metrics.get("exam_name") or exam_id or fallback_label),
        score=score, score_se=se, score_lo=lo, score_hi=hi, norm=norm, norm_se=norm_se, summary=summary,
    )


def _hanabi_values(metrics: dict[str, Any], fallback_label: str) -> EntryValues:
    score, se = _num(metrics.get("score")), _num(metrics.get("score_se"))
    lo, hi = _interval(metrics, "score_ci95", score, se)
    mode = str(metrics.get("mode") or "self")
    players = metrics.get("players")
    setting = metrics.get("setting") or "bot"
    label = f"{players}p {setting}" if players else fallback_label
    if mode == "cross":
        partners = metrics.get("partners") or []
        label = f"{players}p with " + ", ".join(str(p) for p in partners)
    return EntryValues(
        part="", group=mode, label=label, score=score, score_se=se, score_lo=lo, score_hi=hi,
        norm=100.0 * score / HANABI_MAX if score is not None else None,
        norm_se=100.0 * se / HANABI_MAX if se is not None else None,
        summary=_slim(metrics),
    )


def _chess_values(metrics: dict[str, Any], fallback_label: str) -> EntryValues:
    task = str(metrics.get("task") or "unknown")
    score, se = _num(metrics.get("score")), _num(metrics.get("score_se"))
    if task == "games":
        lo, hi = _interval(metrics, "elo_ci95", score, se)
        norm = norm_se = None  # Elo is not on a 0-100 scale
    else:
        lo, hi = _interval(metrics, "score_ci95", score, se)
        norm, norm_se = score, se  # every move task and puzzles report percent (evaluators.chess)
    return EntryValues(
        part="", group=task, label=fallback_label, score=score, score_se=se, score_lo=lo,
        score_hi=hi, norm=norm, norm_se=norm_se, summary=_slim(metrics),
    )


def entry_values(family: str, metrics: dict[str, Any], benchmark_name: str) -> list[EntryValues]:
    """One EntryValues per part of a run (a HiPhO suite run yields one per exam)."""
    if family == "hipho":
        exams = metrics.get("exams")
        if isinstance(exams, dict) and exams:
            return [
                _hipho_values(str(exam_id), dict(exam), benchmark_name)
                for exam_id, exam in exams.items() if isinstance(exam, dict)
            ]
        return [_hipho_values("", metrics, benchmark_name)]
    if family == "hanabi":
        return [_hanabi_values(metrics, benchmark_name)]
    if family == "chess":
        return [_chess_values(metrics, benchmark_name)]
    score, se = _num(metrics.get("score")), _num(metrics.get("score_se"))
    lo, hi = _interval(metrics, "score_ci95", score, se)
    return [EntryValues("", "", benchmark_name, score, se, lo, hi, None, None, _slim(metrics))]


def mean_with_se(values: list[tuple[float, float | None]]) -> tuple[float | None, float | None]:
    """Mean of independent estimates and its standard error (None when any SE is unknown)."""
    if not values:
        return None, None
    mean = sum(v for v, _ in values) / len(values)
    if any(se is None for _, se in values):
        return mean, None
    return mean, math.sqrt(sum(se * se for _, se in values)) / len(values)
