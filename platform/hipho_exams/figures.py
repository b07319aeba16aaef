"""Problem figures of a HiPhO exam, read from the exam folder the benchmark's config names."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from catalog.models import Benchmark
from rubrics.errors import ExamFormatError

log = logging.getLogger(__name__)
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


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


def problem_labels(problem_ids: list[str]) -> dict[str, str]:
    """Short column labels: the exam name every id starts with is left out ('IPhO_2025_1_A_1' on
    the IPhO 2025 page is '1.A.1')."""
    ids = [str(i) for i in problem_ids]
    prefix = ""
    if len(ids) > 1:
        first, last = min(ids), max(ids)
        n = 0
        while n < min(len(first), len(last)) and first[n] == last[n]:
            n += 1
        prefix = first[:n]
        prefix = prefix[: prefix.rfind("_") + 1] if "_" in prefix else ""
    return {i: (i[len(prefix) :] or i).replace("_", ".") for i in ids}


def exam_figures(exam_id: str, benchmark_ids: list[int]) -> list[dict[str, Any]]:
    """Each figure file once (several problems often share one), captioned with the problems it
    belongs to rather than its file name."""
    exam = _exam(exam_id, benchmark_ids)
    if exam is None:
        return []
    labels = problem_labels([p.id for p in exam.problems])
    by_file: dict[str, dict[str, Any]] = {}
    for p_index, problem in enumerate(exam.problems):
        for f_index, rel in enumerate(problem.figures):
            if Path(rel).suffix.lower() not in IMAGE_TYPES:
                continue
            key = str(Path(rel).as_posix()).lower()
            fig = by_file.setdefault(
                key, {"problem": problem.id, "p": p_index, "f": f_index, "problems": []}
            )
            if labels[problem.id] not in fig["problems"]:
                fig["problems"].append(labels[problem.id])
    out = []
    for n, fig in enumerate(by_file.values(), start=1):
        names = fig["problems"]
        fig["caption"] = f"Figure {n}: problem{'s' if len(names) > 1 else ''} {', '.join(names)}"
        out.append(fig)
    return out


def figure_file(
    exam_id: str, benchmark_ids: list[int], p_index: int, f_index: int
) -> tuple[Path, str] | None:
    exam = _exam(exam_id, benchmark_ids)
    if exam is None or not 0 <= p_index < len(exam.problems):
        return None
    figures = exam.problems[p_index].figures
    if not 0 <= f_index < len(figures):
        return None
    try:
        path = exam.figure_path(figures[f_index]).resolve()
    except ExamFormatError:  # a symlink or a path outside the folder: never served
        return None
    root = exam.root.resolve()
    content_type = IMAGE_TYPES.get(path.suffix.lower())
    if content_type is None or root not in path.parents or not path.is_file():
        return None
    return path, content_type
