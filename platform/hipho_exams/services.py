"""Writes for HiPhO: importing exams as benchmarks.

``hipho_import`` validates every exam file before it writes anything, then writes all the
benchmark rows in one transaction: a malformed file leaves the database as it was.
Re-grading is the family's hook (evaluators.hipho.evaluator.regrade_outcome), run by the
platform's generic jobs.regrade.run_regrade.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import transaction

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmark_validate_config
from evaluators.hipho.source import SUITE
from rubrics.catalogue import exam_info
from rubrics.exam import Exam, load_exam_dir
from rubrics.hf import HF_REPO_ID, hf_snapshot

SLUG_PREFIX = "hipho/"
SUITE_SLUG = "hipho/suite"
# The published protocol samples each problem 8 times (temperature 0.6).
PROTOCOL_SAMPLES = 8
PROTOCOL_TEMPERATURE = 0.6


def _description(exam: Exam) -> str:
    info = exam_info(exam.exam_id)
    if info is None:
        return f"{exam.name}: {len(exam.problems)} problems, {exam.full_marks:g} points; no medal cut-offs known."
    if info.cutoffs is None:
        return (
            f"{info.name}: {len(exam.problems)} problems, {exam.full_marks:g} points; "
            "no official medal cut-offs (scored, no medal shown)."
        )
    c = info.cutoffs
    return (
        f"{info.name}: {len(exam.problems)} problems, {exam.full_marks:g} points for models "
        f"({info.human_full:g} for humans); medal cut-offs gold {c.gold:g}, silver {c.silver:g}, "
        f"bronze {c.bronze:g}; top human {c.top_human:g}."
    )


def hipho_import(
    *,
    path: str | Path | None = None,
    hf: bool = False,
    cache_dir: str | Path | None = None,
    judge: ModelEntry | None = None,
    samples: int = PROTOCOL_SAMPLES,
    temperature: float | None = PROTOCOL_TEMPERATURE,
    offline: bool = False,
) -> list[Benchmark]:
    """One benchmark per exam (``hipho/ipho-2025``, ...) plus ``hipho/suite``.

    Exactly one of ``path`` (a folder of exam files) or ``hf`` (the SciYu/HiPhO dataset, cached
    in ``cache_dir``) names the source. Raises ExamFormatError (naming file, record and field)
    before any write when a file is malformed.
    """
    if bool(path) == bool(hf):
        raise ValueError("give exactly one source: path=DIR or hf=True")
    if hf:
        if not cache_dir:
            raise ValueError("hf=True needs cache_dir for the local Hugging Face cache")
        folder = hf_snapshot(cache_dir=cache_dir, offline=offline)
        base: dict[str, Any] = {
            "source": "hf",
            "cache_dir": str(Path(cache_dir).resolve()),
            "repo_id": HF_REPO_ID,
        }
    else:
        folder = Path(path).resolve()  # type: ignore[arg-type]
        base = {"source": "dir", "path": str(folder)}
    if temperature is not None:
        base["temperature"] = temperature

    exams = load_exam_dir(folder)  # validates every file before anything is written

    rows: list[tuple[str, str, dict[str, Any], str, str]] = []
    for exam in exams:
        info = exam_info(exam.exam_id)
        config = benchmark_validate_config(family="hipho", config={**base, "exam": exam.exam_id})
        rows.append(
            (
                SLUG_PREFIX + exam.exam_id,
                f"HiPhO {info.name if info else exam.name}",
                config,
                exam.content_hash[:12],
                _description(exam),
            )
        )
    suite_config = benchmark_validate_config(family="hipho", config={**base, "exam": SUITE})
    suite_version = _combined_hash([e.content_hash for e in exams])
    rows.append(
        (
            SUITE_SLUG,
            "HiPhO suite (all exams)",
            suite_config,
            suite_version,
            (
                f"All {len(exams)} exams, {sum(len(e.problems) for e in exams)} problems; "
                "score = mean percentage of model full marks over exams."
            ),
        )
    )

    out = []
    with transaction.atomic():
        for slug, name, config, version, description in rows:
            defaults: dict[str, Any] = {
                "name": name,
                "family": "hipho",
                "version": version,
                "config": config,
                "description": description,
                "default_samples": samples,
                "active": True,
            }
            if judge is not None:
                defaults["judge"] = judge
            bench, _ = Benchmark.objects.update_or_create(slug=slug, defaults=defaults)
            out.append(bench)
    return out


def _combined_hash(hashes: list[str]) -> str:
    import hashlib

    return hashlib.sha256("".join(sorted(hashes)).encode()).hexdigest()[:12]
