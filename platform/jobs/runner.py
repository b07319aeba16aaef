"""Runs one claimed item inside a worker: builds the evaluator's context (model and judge from
the run's spec), keeps the lease alive through the process's lease keeper, and turns every way
an evaluation can end into exactly one state transition."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import traceback

from django.db import DatabaseError, InterfaceError, OperationalError, close_old_connections
from django.db.models.fields.json import KT

from catalog.models import ModelEntry
from evaluators.base import EvalContext, EvaluationError, ItemKey, JobCancelled, ModelConfig
from evaluators.llm_service import CallServiceUnavailable
from evaluators.registry import get_family
from jobs import services
from jobs.dbconn import release_connection
from jobs.leases import keeper
from jobs.llm_wiring import CallScope, gateway, scope_set, storable
from jobs.models import ItemResult, Job
from jobs.spec import frozen_model

log = logging.getLogger(__name__)


class InfrastructureError(Exception):
    """The database, the broker or the host's call service failed under us: the item goes back
    to the queue, not to FAILED."""


_cancelled_at: dict[int, tuple[float, bool]] = {}
_cancelled_lock = threading.Lock()


def _job_cancelled(job_id: int) -> bool:
    """Whether the job was cancelled; one query per job per second for the whole process,
    however many of its items are in flight here and however often they ask."""
    now = time.monotonic()
    with _cancelled_lock:
        seen = _cancelled_at.get(job_id)
    if seen is not None and now - seen[0] <= 1.0:
        return seen[1]
    cancelled = Job.objects.filter(pk=job_id, status=Job.Status.CANCELLED).exists()
    with _cancelled_lock:
        _cancelled_at[job_id] = (now, cancelled)
    return cancelled


def _resolver(spec: dict):
    """Other models an item plays with (Hanabi partners, chess opponents): the catalogue entry
    with the model string and parameters frozen in the run's spec at submission."""
    frozen = spec.get("partner_models") or {}
    cache: dict[str, ModelConfig] = {}

    def resolve(slug_or_model: str) -> ModelConfig:
        if slug_or_model not in cache:
            entry = (
                ModelEntry.objects.filter(slug=slug_or_model).first()
                or ModelEntry.objects.filter(litellm_model=slug_or_model).first()
            )
            if entry is None:
                raise EvaluationError(f"unknown model {slug_or_model!r}")
            f = frozen.get(entry.slug)
            cache[slug_or_model] = (
                frozen_model(
                    entry, model=f.get("model"), params=f.get("params"), vision=f.get("vision")
                )
                if f
                else entry.to_config()
            )
        return cache[slug_or_model]

    return resolve


def _finished_reader(run_id: int):
    """ctx.finished: named details fields of the run's finished items, read as JSON keys in
    the database (a game's details hold every move; the adaptive chess design needs two)."""

    def finished(fields):
        names = [str(f) for f in fields]
        rows = (
            ItemResult.objects.filter(run_id=run_id, state=ItemResult.State.DONE)
            .annotate(**{f"_f{i}": KT(f"details__{name}") for i, name in enumerate(names)})
            .values_list(*[f"_f{i}" for i in range(len(names))])
        )
        return [dict(zip(names, row, strict=True)) for row in rows]

    return finished


def run_models(run) -> tuple[ModelConfig, ModelConfig | None]:
    """The model and judge a run executes, from its spec (see jobs.spec): editing the model or
    the benchmark's judge after submission does not change a submitted run."""
    spec = run.spec or {}
    if "model_params" in spec:
        model = frozen_model(
            run.model,
            model=spec.get("model"),
            params=spec["model_params"],
            vision=spec.get("model_vision"),
        )
    else:  # a spec from before parameters were frozen: the old behaviour
        model = run.model.to_config()
        override = run.job.params_override or {}
        if override:
            model = ModelConfig(**{**model.__dict__, "params": {**model.params, **override}})
    if "judge" not in spec:
        judge_entry = run.benchmark.judge
        return model, judge_entry.to_config() if judge_entry is not None else None
    if not spec["judge"]:
        return model, None
    entry = (
        ModelEntry.objects.filter(slug=spec.get("judge_slug")).first()
        if spec.get("judge_slug")
        else None
    ) or run.benchmark.judge
    if entry is None:
        raise EvaluationError(
            f"judge {spec.get('judge_slug') or spec['judge']!r} of this run "
            "is no longer in the catalogue"
        )
    return model, frozen_model(
        entry, model=spec["judge"], params=spec.get("judge_params"), vision=spec.get("judge_vision")
    )


def execute_item(item_id: int, token: str) -> str:
    """Evaluate a claimed item. Returns the state it ended in.

    The lease is kept alive from here until the item's final write has committed: released
    earlier, a finishing write that waits for a pooled connection (hundreds of threads share
    a few) could outlast the lease, and the reaper would hand a finished evaluation to another
    worker to do again."""
    lease = keeper().hold(item_id, token)
    try:
        return _execute(item_id, token, lease)
    finally:
        keeper().release(lease)


def _execute(item_id: int, token: str, lease) -> str:
    item = ItemResult.objects.select_related("run__model", "run__benchmark__judge", "run__job").get(
        pk=item_id
    )
    run = item.run
    family = get_family(run.benchmark.family)
    config = run.spec.get("config", run.benchmark.config)
    model, judge = run_models(run)

    def generate(messages, *, model, sample_index=0, purpose="model", params=None):
        release_connection()  # nobody holds a pooled connection while waiting on a model
        completion = gateway().complete(
            messages, model=model, sample_index=sample_index, purpose=purpose, params=params
        )
        release_connection()
        # the evaluator stores what it is given: hand it text the database can hold
        clean = storable(completion.text)
        return (
            completion if clean is completion.text else dataclasses.replace(completion, text=clean)
        )

    def checkpoint(state: dict) -> None:
        held = services.item_heartbeat(item_id=item_id, token=token, checkpoint=state)
        release_connection()
        if not held:
            raise JobCancelled("this worker no longer holds the item")

    job_id = run.job_id

    def is_cancelled() -> bool:
        # A lost lease means another worker took the item over: stop spending on it here.
        return lease.lost or _job_cancelled(job_id)

    ctx = EvalContext(
        generate=generate,
        checkpoint=checkpoint,
        resume=item.checkpoint,
        is_cancelled=is_cancelled,
        resolve_model=_resolver(run.spec or {}),
        judge=judge,
        finished=_finished_reader(run.pk),
    )
    scope_set(CallScope(run_id=run.pk, item_id=item_id))
    try:
        ctx.check_cancelled()
        release_connection()
        outcome = family.evaluate(
            config=config, model=model, item=ItemKey(item.item_key, item.sample_index), ctx=ctx
        )
    except JobCancelled:
        services.item_cancel(item_id=item_id, token=token)
        return ItemResult.State.CANCELLED
    except (OperationalError, InterfaceError, CallServiceUnavailable) as exc:
        raise InfrastructureError(str(exc)) from exc
    except Exception as exc:  # any other failure is recorded with its reason, never lost
        reason = _failure_reason(exc)
        log.warning("item %s failed: %s", item_id, reason.splitlines()[0])
        services.item_fail(item_id=item_id, token=token, reason=reason)
        return ItemResult.State.FAILED
    finally:
        scope_set(None)
    try:
        stored = services.item_finish(item_id=item_id, token=token, outcome=outcome)
    except (OperationalError, InterfaceError) as exc:
        raise InfrastructureError(str(exc)) from exc
    if not stored:
        log.warning(
            "item %s: evaluated here, but no longer held by this worker: discarded", item_id
        )
    return ItemResult.State.DONE


def _failure_reason(exc: Exception) -> str:
    name = type(exc).__name__
    message = str(exc) or name
    if isinstance(exc, EvaluationError):  # LLMError is one: its message is already scrubbed
        return f"{name}: {message}"
    tail = "".join(traceback.format_exception(exc)[-3:])
    return f"{name}: {message}\n{tail}"


def release_after_infrastructure_error(item_id: int, token: str) -> None:
    close_old_connections()
    try:
        services.item_release(item_id=item_id, token=token)
    except DatabaseError:
        log.warning(
            "could not release item %s; its lease will expire and the reaper requeues it", item_id
        )
