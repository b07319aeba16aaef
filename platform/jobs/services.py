"""Writes of the job engine: submit, claim, finish, fail, cancel, resume, aggregate.

Every state change of an item is a conditional UPDATE whose row count says whether this caller
won, so two workers (or a worker and the reaper) never both finish the same item, and counters
move exactly once per transition.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Sum
from django.utils import timezone

from catalog.models import Benchmark, ModelEntry
from evaluators.base import ConfigError, ItemOutcome, StoredOutcome
from evaluators.registry import family_builtins, get_family
from jobs import queue
from jobs.models import ItemResult, Job, LLMCall, Run
from jobs.signals import run_aggregated
from jobs.spec import run_spec_build, spec_hash

log = logging.getLogger(__name__)

MAX_ERROR_CHARS = 4000


def job_submit(
    *,
    models: Sequence[ModelEntry],
    benchmarks: Sequence[Benchmark],
    samples: int | None = None,
    submitted_by=None,
    name: str = "",
    params_override: dict[str, Any] | None = None,
) -> Job:
    """Create a job with one run per (model, benchmark) and one item row per graded unit, then
    queue the items once the rows are committed. Validates everything before writing anything."""
    models, benchmarks = list(models), list(benchmarks)
    if not models:
        raise ValidationError("a job needs at least one model")
    if not benchmarks:
        raise ValidationError("a job needs at least one benchmark")
    if samples is not None and (
        not isinstance(samples, int)
        or isinstance(samples, bool)
        or not 1 <= samples <= settings.PODIUM_MAX_SAMPLES
    ):
        raise ValidationError(
            f"samples must be an integer from 1 to {settings.PODIUM_MAX_SAMPLES} "
            f"(PODIUM_MAX_SAMPLES), got {samples!r}"
        )
    if len({m.pk for m in models}) != len(models):
        raise ValidationError("a model is listed twice; list each model once")
    for model in models:
        if not model.active:
            raise ValidationError(f"model {model.slug!r} is not active")
    params_override = dict(params_override or {})

    plans = []
    planned_items = 0
    for benchmark in benchmarks:
        if not benchmark.active:
            raise ValidationError(f"benchmark {benchmark.slug!r} is not active")
        family = get_family(benchmark.family)
        try:
            config = family.validate_config(benchmark.config)
        except ConfigError as exc:
            raise ValidationError(f"benchmark {benchmark.slug}: {exc}") from exc
        n = samples or benchmark.default_samples
        if not 1 <= n <= settings.PODIUM_MAX_SAMPLES:
            raise ValidationError(
                f"benchmark {benchmark.slug}: {n} samples is over the cap of "
                f"{settings.PODIUM_MAX_SAMPLES} (PODIUM_MAX_SAMPLES)"
            )
        try:
            keys = family.items(config, samples=n)
        except ConfigError as exc:  # the benchmark's data (an exam file, a CSV) does not load
            raise ValidationError(f"benchmark {benchmark.slug}: {exc}") from exc
        if not keys:
            raise ValidationError(f"benchmark {benchmark.slug} has no items")
        planned_items += len(keys) * len(models)
        if planned_items > settings.PODIUM_MAX_JOB_ITEMS:
            raise ValidationError(
                f"this job would have over {settings.PODIUM_MAX_JOB_ITEMS} items "
                "(PODIUM_MAX_JOB_ITEMS); split it into several jobs"
            )
        playable = family_builtins(benchmark.family)
        for model in models:
            if model.is_builtin and model.litellm_model.removeprefix("builtin/") not in playable:
                raise ValidationError(
                    f"built-in player {model.litellm_model} cannot play {benchmark.family} "
                    f"benchmark {benchmark.slug}; built-ins there: {', '.join(sorted(playable))}"
                )
            spec = run_spec_build(
                family=family,
                config=config,
                model=model,
                benchmark=benchmark,
                samples=n,
                params_override=params_override,
            )
            plans.append((model, benchmark, spec, keys))

    with transaction.atomic():
        job = Job.objects.create(
            name=name or ", ".join(b.slug for b in benchmarks)[:200],
            samples=samples or 0,
            params_override=params_override,
            submitted_by=submitted_by,
        )
        total = 0
        for model, benchmark, spec, keys in plans:
            run = Run.objects.create(
                job=job,
                model=model,
                benchmark=benchmark,
                spec=spec,
                spec_hash=spec_hash(spec),
                total_items=len(keys),
            )
            ItemResult.objects.bulk_create(
                [ItemResult(run=run, item_key=k.key, sample_index=k.sample_index) for k in keys],
                batch_size=2000,
            )
            total += len(keys)
        job.total_items = total
        job.save(update_fields=["total_items"])
        transaction.on_commit(lambda: queue.enqueue_dispatch(job.pk))
    return job


def job_dispatch(*, job_id: int) -> int:
    """Queue every pending item of a live job. Safe to repeat: claiming is conditional.

    If the broker goes away part way, stop and return what was queued: the items left
    PENDING are queued again by the reaper once the queue is reachable (and empty), and a
    duplicated message is harmless. Raising instead failed the task (or, with kombu's
    half-closed channel, took the worker down) and left the job pending."""
    if not Job.objects.filter(pk=job_id).exclude(status=Job.Status.CANCELLED).exists():
        return 0
    ids = list(
        ItemResult.objects.filter(run__job_id=job_id, state=ItemResult.State.PENDING)
        .order_by("run_id", "sample_index", "id")
        .values_list("id", flat=True)
    )
    return queue.enqueue_job_items(job_id, ids)


def item_claim(*, item_id: int) -> str | None:
    """Take a pending item for this worker. Returns the claim token, or None if another worker
    has it, it has ended, or its job was cancelled.

    The claim is ONE conditional UPDATE on the item row itself (`WHERE id = … AND state =
    'pending' AND NOT EXISTS (cancelled job)`): PostgreSQL re-checks that WHERE clause on the
    row after waiting for a concurrent claimer's lock, so a second claimer sees 'running' and
    updates nothing. Filtering through the run -> job join instead made Django emit
    `WHERE id IN (SELECT …)`, whose state test is not re-checked after the lock: two claimers
    both won whenever the first one's commit was slow.
    """
    owners = (
        ItemResult.objects.filter(pk=item_id)
        .values_list("run_id", "run__job_id", "run__status", "run__job__status")
        .first()
    )
    if owners is None:
        return None
    run_id, job_id, run_status, job_status = owners
    token = uuid.uuid4().hex
    now = timezone.now()
    claimed = (
        ItemResult.objects.filter(pk=item_id, state=ItemResult.State.PENDING)
        .exclude(Exists(Job.objects.filter(pk=job_id, status=Job.Status.CANCELLED)))
        .update(
            state=ItemResult.State.RUNNING,
            claim_token=token,
            lease_until=now + timedelta(seconds=settings.PODIUM_ITEM_LEASE_SECONDS),
            attempts=F("attempts") + 1,
            started_at=now,
            error="",
        )
    )
    if not claimed:
        return None
    # Only the first claims of a run find it pending (read above; the updates stay conditional).
    # A resume sets the run back to pending in the transaction that makes its items claimable,
    # so a claim of one of those items reads it pending.
    if run_status == Run.Status.PENDING:
        Run.objects.filter(pk=run_id, status=Run.Status.PENDING).update(status=Run.Status.RUNNING)
    if job_status == Job.Status.PENDING:
        Job.objects.filter(pk=job_id, status=Job.Status.PENDING).update(
            status=Job.Status.RUNNING, started_at=now
        )
    return token


def item_heartbeat(*, item_id: int, token: str, checkpoint: dict | None = None) -> bool:
    """Extend the lease (and store a checkpoint). False when the claim was lost."""
    fields: dict[str, Any] = {
        "lease_until": timezone.now() + timedelta(seconds=settings.PODIUM_ITEM_LEASE_SECONDS)
    }
    if checkpoint is not None:
        fields["checkpoint"] = checkpoint
    return bool(
        ItemResult.objects.filter(
            pk=item_id, claim_token=token, state=ItemResult.State.RUNNING
        ).update(**fields)
    )


def item_finish(*, item_id: int, token: str, outcome: ItemOutcome) -> bool:
    """Store a graded item. Exactly one transition RUNNING -> DONE counts."""
    with transaction.atomic():
        won = ItemResult.objects.filter(
            pk=item_id, claim_token=token, state=ItemResult.State.RUNNING
        ).update(
            state=ItemResult.State.DONE,
            score=outcome.score,
            scores=outcome.scores,
            details=outcome.details,
            transcript=outcome.transcript,
            checkpoint=None,
            finished_at=timezone.now(),
            lease_until=None,
            error="",
        )
        if won:
            ended = _count_item(item_id, done=1)
    if won:
        _complete_ended(*ended)
    return bool(won)


def item_fail(
    *, item_id: int, token: str | None, reason: str, transcript: list | None = None
) -> bool:
    """Mark an item failed with its reason (shown on the job page; a resume retries it)."""
    qs = ItemResult.objects.filter(pk=item_id, state=ItemResult.State.RUNNING)
    if token is not None:
        qs = qs.filter(claim_token=token)
    fields: dict[str, Any] = {
        # failed by the reaper (no token): the token goes, so a holder still alive learns it lost
        # the item (its lease renewer reports only items that no longer carry its token)
        **({"claim_token": ""} if token is None else {}),
        "state": ItemResult.State.FAILED,
        "error": reason[:MAX_ERROR_CHARS],
        "finished_at": timezone.now(),
        "lease_until": None,
    }
    if transcript is not None:
        fields["transcript"] = transcript
    with transaction.atomic():
        won = qs.update(**fields)
        if won:
            ended = _count_item(item_id, failed=1)
    if won:
        _complete_ended(*ended)
    return bool(won)


def item_release(*, item_id: int, token: str) -> bool:
    """Give a claimed item back (a transient infrastructure error): it will be claimed again."""
    return bool(
        ItemResult.objects.filter(
            pk=item_id, claim_token=token, state=ItemResult.State.RUNNING
        ).update(state=ItemResult.State.PENDING, claim_token="", lease_until=None)
    )


def item_cancel(*, item_id: int, token: str) -> bool:
    return bool(
        ItemResult.objects.filter(
            pk=item_id, claim_token=token, state=ItemResult.State.RUNNING
        ).update(state=ItemResult.State.CANCELLED, lease_until=None, finished_at=timezone.now())
    )


def _count_item(item_id: int, *, done: int = 0, failed: int = 0) -> tuple[int, int, bool, bool]:
    """Count an item's end on its run and job, in the caller's transaction: two UPDATE ...
    RETURNING statements (PostgreSQL, and SQLite >= 3.35) instead of a lookup of the owners,
    two updates and two reads of the rows. Returns (run id, job id, whether the run has every
    item ended, whether the job has). Each update holds its row's lock until the commit, so the
    count it returns is exact."""
    run, job, item = Run._meta.db_table, Job._meta.db_table, ItemResult._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {run} SET done_items = done_items + %s, failed_items = failed_items + %s "
            f"WHERE id = (SELECT run_id FROM {item} WHERE id = %s) "
            "RETURNING id, job_id, done_items + failed_items >= total_items",
            [done, failed, item_id],
        )
        run_id, job_id, run_ended = cursor.fetchone()
        cursor.execute(
            f"UPDATE {job} SET done_items = done_items + %s, failed_items = failed_items + %s "
            "WHERE id = %s RETURNING done_items + failed_items >= total_items",
            [done, failed, job_id],
        )
        (job_ended,) = cursor.fetchone()
    return run_id, job_id, bool(run_ended), bool(job_ended)


def _complete_ended(run_id: int, job_id: int, run_ended: bool, job_ended: bool) -> None:
    """_maybe_complete for the counts an item's end returned (no re-read of the rows)."""
    if run_ended:
        run_aggregate(run_id=run_id)
    if job_ended:
        Job.objects.filter(pk=job_id, status__in=[Job.Status.PENDING, Job.Status.RUNNING]).update(
            status=Job.Status.DONE, finished_at=timezone.now()
        )


def _maybe_complete(run_id: int, job_id: int) -> None:
    run = Run.objects.get(pk=run_id)
    if run.done_items + run.failed_items >= run.total_items:
        run_aggregate(run_id=run_id)
    job = Job.objects.get(pk=job_id)
    if job.done_items + job.failed_items >= job.total_items:
        Job.objects.filter(pk=job_id, status__in=[Job.Status.PENDING, Job.Status.RUNNING]).update(
            status=Job.Status.DONE, finished_at=timezone.now()
        )


def run_aggregate(*, run_id: int) -> Run:
    """Compute and store a run's metrics from its stored items and call log. Idempotent."""
    run = Run.objects.select_related("benchmark", "model").get(pk=run_id)
    family = get_family(run.benchmark.family)
    rows = (
        ItemResult.objects.filter(
            run_id=run_id, state__in=[ItemResult.State.DONE, ItemResult.State.FAILED]
        )
        .order_by("item_key", "sample_index")
        .values_list("item_key", "sample_index", "state", "score", "scores", "details")
    )
    outcomes = [
        StoredOutcome(
            key=k,
            sample_index=s,
            state="done" if st == ItemResult.State.DONE else "failed",
            score=sc,
            scores=scs or {},
            details=d or {},
        )
        for k, s, st, sc, scs, d in rows
    ]
    metrics = family.aggregate(
        config=run.spec.get("config", run.benchmark.config), outcomes=outcomes
    )
    model_calls, judge_calls = Q(purpose="model"), Q(purpose="judge")
    usage = LLMCall.objects.filter(run_id=run_id, cache_hit=False).aggregate(
        # the model's own usage; the judge's is kept apart (never counted as the model's)
        model_in=Sum("input_tokens", filter=model_calls),
        model_out=Sum("output_tokens", filter=model_calls),
        model_reasoning=Sum("reasoning_tokens", filter=model_calls),
        judge_in=Sum("input_tokens", filter=judge_calls),
        judge_out=Sum("output_tokens", filter=judge_calls),
        cost=Sum("cost_usd", filter=Q(purpose="model")),
        judge_cost=Sum("cost_usd", filter=Q(purpose="judge")),
        # a call whose price is unknown, or which timed out (billed, output unknown)
        unknown=Count("id", filter=Q(cost_known=False)),
    )
    ended = run.done_items + run.failed_items >= run.total_items
    Run.objects.filter(pk=run_id).update(
        metrics=metrics,
        score=metrics.get("score"),
        score_se=metrics.get("score_se"),
        input_tokens=usage["model_in"] or 0,
        output_tokens=usage["model_out"] or 0,
        reasoning_tokens=usage["model_reasoning"] or 0,
        cost_usd=usage["cost"] or 0.0,
        judge_cost_usd=usage["judge_cost"] or 0.0,
        cost_unknown_calls=usage["unknown"] or 0,
        judge_input_tokens=usage["judge_in"] or 0,
        judge_output_tokens=usage["judge_out"] or 0,
        aggregated_at=timezone.now(),
        **({"status": Run.Status.DONE, "finished_at": timezone.now()} if ended else {}),
    )
    run.refresh_from_db()
    run_aggregated.send(sender=Run, run_id=run.pk)
    return run


def job_cancel(*, job: Job) -> int:
    """Stop a job: pending items are cancelled now; running ones stop at their next check."""
    with transaction.atomic():
        Job.objects.filter(pk=job.pk).exclude(status=Job.Status.DONE).update(
            status=Job.Status.CANCELLED, finished_at=timezone.now()
        )
        n = ItemResult.objects.filter(run__job=job, state=ItemResult.State.PENDING).update(
            state=ItemResult.State.CANCELLED
        )
        Run.objects.filter(job=job, status__in=[Run.Status.PENDING, Run.Status.RUNNING]).update(
            status=Run.Status.CANCELLED
        )
    job.refresh_from_db()
    return n


def job_resume(*, job: Job) -> int:
    """Re-queue only what is missing: failed and cancelled items. Done items are kept."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job.pk)
        reset = 0
        for run in Run.objects.filter(job=job):
            failed = ItemResult.objects.filter(run=run, state=ItemResult.State.FAILED).update(
                state=ItemResult.State.PENDING, claim_token="", lease_until=None
            )
            cancelled = ItemResult.objects.filter(run=run, state=ItemResult.State.CANCELLED).update(
                state=ItemResult.State.PENDING, claim_token="", lease_until=None
            )
            if failed or cancelled:
                Run.objects.filter(pk=run.pk).update(
                    failed_items=F("failed_items") - failed,
                    status=Run.Status.PENDING,
                    finished_at=None,
                )
            reset += failed + cancelled
            if failed:
                Job.objects.filter(pk=job.pk).update(failed_items=F("failed_items") - failed)
        pending = ItemResult.objects.filter(run__job=job, state=ItemResult.State.PENDING).exists()
        if pending:
            Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, finished_at=None)
        transaction.on_commit(lambda: queue.enqueue_dispatch(job.pk))
    return reset


def items_reap(*, now=None) -> dict[str, int]:
    """Recover from dead workers and lost queues.

    * An item RUNNING past its lease belongs to a worker that died (live workers heartbeat):
      put it back to PENDING and queue it, or fail it after too many attempts.
    * When the broker queue is empty but live jobs still have PENDING items, their messages
      were lost (e.g. Redis restarted without persistence): queue them again. Duplicated
      messages are harmless because claiming is conditional.
    """
    now = now or timezone.now()
    repaired = runs_finish_stuck()  # database only: done first, so a broker outage cannot stop it
    expired = list(
        ItemResult.objects.filter(state=ItemResult.State.RUNNING, lease_until__lt=now).values_list(
            "id", "attempts", "lease_until", "started_at"
        )
    )
    requeue, failed = [], 0
    for item_id, attempts, lease_until, started_at in expired:
        if attempts >= settings.PODIUM_MAX_ITEM_ATTEMPTS:
            if item_fail(
                item_id=item_id,
                token=None,
                reason=f"worker lost {attempts} times while evaluating this item",
            ):
                failed += 1
            continue
        if ItemResult.objects.filter(
            pk=item_id, state=ItemResult.State.RUNNING, lease_until__lt=now
        ).update(state=ItemResult.State.PENDING, claim_token="", lease_until=None):
            requeue.append(item_id)
            # (a lease last renewed at the claim was never renewed by its worker's renewer)
            assert lease_until is not None  # (the filter above: lease_until < now)
            log.warning(
                "item %s: lease expired %.1f s ago, %.1f s after its claim (attempt %d); "
                "taken over",
                item_id,
                (now - lease_until).total_seconds(),
                (lease_until - started_at).total_seconds() if started_at else -1.0,
                attempts,
            )
    orphans = []
    if queue.queue_is_empty():
        orphans = list(
            ItemResult.objects.filter(
                state=ItemResult.State.PENDING,
                run__job__status__in=[Job.Status.PENDING, Job.Status.RUNNING],
            )
            .exclude(pk__in=requeue)
            .values_list("id", flat=True)
        )
    queue.enqueue_items(requeue + orphans)
    return {
        "requeued": len(requeue),
        "failed": failed,
        "orphans": len(orphans),
        "repaired": repaired,
    }


def runs_finish_stuck() -> int:
    """Finish runs (and jobs) whose items have all ended but whose final aggregation never
    completed: the worker that finished the last item was killed, or the database or the
    family's aggregate failed, between the item's commit and the run's. Nothing else would
    ever aggregate them (no item is left to finish, resume finds nothing to re-run), so the
    job would show "running" at 100 % for ever. Idempotent: run_aggregate recomputes from
    stored rows, and a run that is DONE is not picked again."""
    live = [Job.Status.PENDING, Job.Status.RUNNING]
    unfinished = ItemResult.objects.filter(
        run_id=OuterRef("pk"), state__in=[ItemResult.State.PENDING, ItemResult.State.RUNNING]
    )
    stuck_runs = list(
        Run.objects.filter(
            status__in=[Run.Status.PENDING, Run.Status.RUNNING],
            job__status__in=live,
            done_items__gte=F("total_items") - F("failed_items"),
        )
        .exclude(Exists(unfinished))
        .values_list("pk", "job_id")
    )
    repaired = 0
    for run_id, job_id in stuck_runs:
        try:
            _maybe_complete(run_id, job_id)
            repaired += 1
        except Exception:  # one broken run must not stop the repair of the others
            log.exception("run %s: final aggregation failed again; will retry", run_id)
    stuck_jobs = Job.objects.filter(
        status__in=live, total_items__gt=0, done_items__gte=F("total_items") - F("failed_items")
    )
    for job_id in stuck_jobs.values_list("pk", flat=True):
        if not Run.objects.filter(job_id=job_id).exclude(status=Run.Status.DONE).exists():
            repaired += Job.objects.filter(pk=job_id, status__in=live).update(
                status=Job.Status.DONE, finished_at=timezone.now()
            )
    return repaired
