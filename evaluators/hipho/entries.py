"""HiPhO metrics -> leaderboard entries: one per exam (a suite run gives one per exam it holds),
grouped by exam id so an exam counts once whichever benchmark graded it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluators.entries import EntryValues, interval, num, slim


def _exam_values(part: str, metrics: Mapping[str, Any], fallback_label: str) -> EntryValues:
    score, se = num(metrics.get("score")), num(metrics.get("score_se"))
    lo, hi = interval(metrics, "score_ci95", score, se)
    full = num(metrics.get("full_marks"))
    norm = norm_se = None
    if score is not None and full:
        norm = 100.0 * score / full
        norm_se = 100.0 * se / full if se is not None else None
    exam_id = str(metrics.get("exam_id") or part or "")
    summary = slim(metrics)
    if isinstance(metrics.get("problems"), dict):
        summary["n_problems"] = len(metrics["problems"])
    return EntryValues(
        part=part,
        group=exam_id,
        label=str(metrics.get("exam_name") or exam_id or fallback_label),
        score=score,
        score_se=se,
        score_lo=lo,
        score_hi=hi,
        norm=norm,
        norm_se=norm_se,
        summary=summary,
    )


def entry_values(metrics: Mapping[str, Any], benchmark_name: str) -> list[EntryValues]:
    exams = metrics.get("exams")
    if isinstance(exams, dict) and exams:
        return [
            _exam_values(str(exam_id), dict(exam), benchmark_name)
            for exam_id, exam in exams.items()
            if isinstance(exam, dict)
        ]
    return [_exam_values("", metrics, benchmark_name)]
