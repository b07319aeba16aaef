"""Writes for HiPhO: importing exams as benchmarks, re-grading stored replies.

``hipho_import`` validates every exam file before it writes anything, then writes all the
benchmark rows in one transaction: a malformed file leaves the database as it was.
``run_regrade`` grades a run's stored replies again with the current grader (the model under
test is never called), appends the old grades to each item's history and re-aggregates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmark_validate_config
from evaluators.base import ModelConfig
from evaluators.hipho import GRADER_VERSION, regrade_outcome
from evaluators.hipho.source import SUITE
from jobs.models import ItemResult, Run
from jobs.services import run_aggregate
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
        return (f"{info.name}: {len(exam.problems)} problems, {exam.full_marks:g} points; "
                "no official medal cut-offs (scored, no medal shown).")
    c = info.cutoffs
    return (f"{info.name}: {len(exam.problems)} problems, {exam.full_marks:g} points for models "
            f"({info.human_full:g} for humans); medal cut-offs gold {c.gold:g}, silver {c.silver:g}, "
            f"bronze {c.bronze:g}; top human {c.top_human:g}.")


def hipho_import(
    *, path: str | Path | None = None, hf: bool = False, cache_dir: str | Path | None = None,
    judge: ModelEntry | None = None, samples: int = PROTOCOL_SAMPLES,
    temperature: float | None = PROTOCOL_TEMPERATURE, offline: bool = False,
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
        base: dict[str, Any] = {"source": "hf", "cache_dir": str(Path(cache_dir).resolve()),
                                "repo_id": HF_REPO_ID}
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
        rows.append((SLUG_PREFIX + exam.exam_id, f"HiPhO {info.name if info else exam.name}",
                     config, exam.content_hash[:12], _description(exam)))
    suite_config = benchmark_validate_config(family="hipho", config={**base, "exam": SUITE})
    suite_version = _combined_hash([e.content_hash for e in exams])
    rows.append((SUITE_SLUG, "HiPhO suite (all exams)", suite_config, suite_version,
                 (f"All {len(exams)} exams, {sum(len(e.problems) for e in exams)} problems; "
                  "score = mean percentage of model full marks over exams.")))

    out = []
    with transaction.atomic():
        for slug, name, config, version, description in rows:
            defaults: dict[str, Any] = {
                "name": name, "family": "hipho", "version": version,
                "config": config, "description": description, "default_samples": samples,
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


def _judge_callable(judge: ModelConfig, run: Run, item: ItemResult):
    """Judge calls for a re-grade go through the gateway (cached, logged against the run)."""
    from jobs.llm_wiring import CallScope, gateway, scope_set

    draws: dict[str, int] = {}

    def ask(prompt: str) -> str:
        n = draws.get(prompt, 0)
        draws[prompt] = n + 1
        scope_set(CallScope(run_id=run.pk, item_id=item.pk))
        try:
            return gateway().complete([{"role": "user", "content": prompt}], model=judge,
                                      sample_index=item.sample_index * 100 + n, purpose="judge").text
        finally:
            scope_set(None)

    return ask


def run_regrade(*, run: Run, use_judge: bool = True) -> dict[str, int]:
    """Grade every stored reply of a HiPhO run again with the current grader version.

    The model under test is never called. With ``use_judge`` and a judge on the benchmark, the
    step level is graded again through the judge (identical prompts come from the cache);
    otherwise the old step-level score is kept and only the answer level is re-graded.
    """
    if run.benchmark.family != "hipho":
        raise ValueError(f"run {run.pk} is a {run.benchmark.family} run, not HiPhO")
    config = run.spec.get("config", run.benchmark.config)
    judge = run.benchmark.judge.to_config() if (use_judge and run.benchmark.judge_id) else None
    items = list(run.items.filter(state=ItemResult.State.DONE).order_by("item_key", "sample_index"))
    now = timezone.now().isoformat()
    regraded, changed = 0, 0
    updates = []
    for item in items:  # grade everything first: a failure leaves every row as it was
        details = dict(item.details or {})
        outcome = regrade_outcome(
            config=config, key=item.item_key, details=details,
            judge=_judge_callable(judge, run, item) if judge else None,
        )
        scores = dict(outcome.scores)
        if judge is None and (item.scores or {}).get("S") is not None:
            # keep the stored step-level grade; only the answers were graded again
            scores["S"] = item.scores["S"]
            scores["best_scheme"] = item.scores.get("best_scheme")
            scores["P"] = max(scores["A"], scores["S"])
            outcome.details["steps"] = details.get("steps")
            outcome.details["answer_level_only"] = details.get("answer_level_only", True)
        history = list(details.get("history") or [])
        history.append({
            "regraded_at": now, "grader_version": details.get("grader_version"),
            "score": item.score, "scores": item.scores, "answers": details.get("answers"),
            "steps": details.get("steps"),
        })
        new_details = {**outcome.details, "history": history}
        changed += int(scores.get("P") != (item.scores or {}).get("P"))
        updates.append((item, scores, new_details, outcome.transcript))
        regraded += 1
    with transaction.atomic():
        for item, scores, new_details, transcript in updates:
            # keep the model's prompt and reply entries; replace the grading ones
            head = [t for t in (item.transcript or []) if t.get("role") in ("prompt", "reply")]
            ItemResult.objects.filter(pk=item.pk).update(
                score=scores["P"], scores=scores, details=new_details, transcript=head + transcript,
            )
        spec = dict(run.spec)
        spec.setdefault("regrades", []).append(
            {"at": now, "from": spec.get("grader_version"), "to": GRADER_VERSION,
             "judge": judge is not None})
        spec["grader_version"] = GRADER_VERSION
        Run.objects.filter(pk=run.pk).update(spec=spec)
    run_aggregate(run_id=run.pk)
    return {"regraded": regraded, "changed": changed}
