"""Re-grading a run's stored items with the current grader, for any family that declares a
``regrade`` hook (FamilySpec.regrade; HiPhO grades its stored replies again). The model under
test is never called; a judge, when used, goes through the gateway (cached, logged against the
run). The old grades go to each item's details history, then the run is re-aggregated.

Everything is graded before anything is written: a failure leaves every row as it was."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from evaluators.base import ModelConfig
from evaluators.registry import get_spec
from jobs.models import ItemResult, Run
from jobs.services import run_aggregate


def _judge_callable(judge: ModelConfig, run: Run, item: ItemResult):
    from jobs.llm_wiring import CallScope, gateway, scope_set

    draws: dict[str, int] = {}

    def ask(prompt: str) -> str:
        n = draws.get(prompt, 0)
        draws[prompt] = n + 1
        scope_set(CallScope(run_id=run.pk, item_id=item.pk))
        try:
            return (
                gateway()
                .complete(
                    [{"role": "user", "content": prompt}],
                    model=judge,
                    sample_index=item.sample_index * 100 + n,
                    purpose="judge",
                )
                .text
            )
        finally:
            scope_set(None)

    return ask


def run_regrade(*, run: Run, use_judge: bool = True) -> dict[str, int]:
    """Grade every done item of ``run`` again through its family's regrade hook. With
    ``use_judge`` and a judge on the benchmark the judge grades again (identical prompts come
    from the cache); otherwise the hook keeps what only a judge can grade from the stored scores."""
    spec = get_spec(run.benchmark.family)
    regrade = spec.regrade_outcome
    if regrade is None:
        raise ValueError(f"run {run.pk} is a {spec.label} run; {spec.label} has no re-grading")
    config = run.spec.get("config", run.benchmark.config)
    judge = (
        run.benchmark.judge.to_config() if (use_judge and run.benchmark.judge is not None) else None
    )
    items = list(run.items.filter(state=ItemResult.State.DONE).order_by("item_key", "sample_index"))
    now = timezone.now().isoformat()
    changed = 0
    updates: list[tuple[ItemResult, Any]] = []
    for item in items:
        details = dict(item.details or {})
        outcome = regrade(
            config=config,
            key=item.item_key,
            details=details,
            judge=_judge_callable(judge, run, item) if judge else None,
            previous_scores=dict(item.scores or {}),
        )
        history = list(details.get("history") or [])
        history.append(
            {
                "regraded_at": now,
                "grader_version": details.get("grader_version"),
                "score": item.score,
                "scores": item.scores,
                "answers": details.get("answers"),
                "steps": details.get("steps"),
            }
        )
        outcome.details = {**outcome.details, "history": history}
        changed += int(outcome.score != item.score)
        updates.append((item, outcome))
    grader_version = spec.evaluator.spec(config).get("grader_version")
    with transaction.atomic():
        for item, outcome in updates:
            # keep the model's prompt and reply entries; replace the grading ones
            head = [t for t in (item.transcript or []) if t.get("role") in ("prompt", "reply")]
            ItemResult.objects.filter(pk=item.pk).update(
                score=outcome.score,
                scores=outcome.scores,
                details=outcome.details,
                transcript=head + outcome.transcript,
            )
        run_spec = dict(run.spec)
        run_spec.setdefault("regrades", []).append(
            {
                "at": now,
                "from": run_spec.get("grader_version"),
                "to": grader_version,
                "judge": judge is not None,
            }
        )
        run_spec["grader_version"] = grader_version
        Run.objects.filter(pk=run.pk).update(spec=run_spec)
    run_aggregate(run_id=run.pk)
    return {"regraded": len(updates), "changed": changed}
