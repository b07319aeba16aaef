"""Problem figures of a HiPhO exam, read from the exam folder the benchmark's config names."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from catalog.models import Benchmark

log = logging.getLogger(__name__)
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}


def _exam(exam_id: str, benchmark_ids: list[int]):
    """The rubrics Exam with this id from a local (source "dir") benchmark config, or None."""
    from evaluators.base import ConfigError
    from evaluators.hipho.source import exams_for

    for bench in Benchmark.objects.filter(pk__in=benchmark_ids, family="hipho"):
        config = dict(bench.config or {})
        if config.get("source", "dir") != "dir":
            continue  # never download from a page view
        try:
            exams = exams_for(config)
        except (ConfigError, OSError, ValueError) as exc:
            log.warning("figures of %s: %s", bench.slug, exc)
            continue
        for exam in exams:
            if exam.exam_id == exam_id:
                return exam
    return None


def exam_figures(exam_id: str, benchmark_ids: list[int]) -> list[dict[str, Any]]:
    exam = _exam(exam_id, benchmark_ids)
    if exam is None:
        return []
    out = []
    for p_index, problem in enumerate(exam.problems):
        for f_index, rel in enumerate(problem.figures):
            if Path(rel).suffix.lower() in IMAGE_TYPES:
                out.append({"problem": problem.id, "p": p_index, "f": f_index, "caption": f"{problem.id}: {Path(rel).name}"})
    return out


def figure_file(exam_id: str, benchmark_ids: list[int], p_index: int, f_index: int) -> tuple[Path, str] | None:
    exam = _exam(exam_id, benchmark_ids)
    if exam is None or not 0 <= p_index < len(exam.problems):
        return None
    figures = exam.problems[p_index].figures
    if not 0 <= f_index < len(figures):
        return None
    path = exam.figure_path(figures[f_index]).resolve()
    root = exam.root.resolve()
    content_type = IMAGE_TYPES.get(path.suffix.lower())
    if content_type is None or root not in path.parents or not path.is_file():
        return None
    return path, content_type
