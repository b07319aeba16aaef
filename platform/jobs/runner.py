"""Runs one claimed item inside a worker: builds the evaluator's context, keeps the lease alive,
and turns every way an evaluation can end into exactly one state transition."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import traceback

from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
)
from django.db.models.fields.json import KT

from catalog.models import ModelEntry
from evaluators.base import EvalContext, EvaluationError, ItemKey, JobCancelled, ModelConfig
from evaluators.registry import get_family
from jobs import services
from jobs.llm_wiring import CallScope, gateway, scope_set, storable
from jobs.models import ItemResult, Job

log = logging.getLogger(__name__)


class InfrastructureError(Exception):
    """The database or broker failed under us: the item goes back to the queue, not to FAILED."""


class _Heartbeat(threading.Thread):
    """Renews the item's lease while the evaluator works, so only a dead worker loses it."""

    def __init__(self, item_id: int, token: str) -> None:
        super().__init__(daemon=True, name=f"lease-{item_id}")
        self.item_id, self.token = item_id, token
        self.stop_event = threading.Event()
        self.lost = False

    def run(self) -> None:
        interval = max(settings.PODIUM_ITEM_LEASE_SECONDS / 3, 0.5)
        try:
            while not self.stop_event.wait(interval):
                try:
                    if not services.item_heartbeat(item_id=self.item_id, token=self.token):
                        self.lost = True
                        return
                except DatabaseError:
                    log.warning("heartbeat of item %s failed; will retry", self.item_id)
                    # Drop the broken connection: this thread never starts a new "request", so
                    # Django would keep reusing it and every later heartbeat would fail too.
                    try:
                        connection.close()
                    except DatabaseError:
                        pass
        finally:
            connection.close()


def _cancel_checker(job_id: int):
    state = {"at": 0.0, "cancelled": False}

    def is_cancelled() -> bool:
        now = time.monotonic()
        if now - state["at"] > 1.0:  # one query per second at most, however often it is asked
            state["cancelled"] = Job.objects.filter(pk=job_id, status=Job.Status.CANCELLED).exists()
            state["at"] = now
        return state["cancelled"]

    return is_cancelled


def _resolver():
    cache: dict[str, ModelConfig] = {}

    def resolve(slug_or_model: str) -> ModelConfig:
        if slug_or_model not in cache:
            entry = (
                ModelEntry.objects.filter(slug=slug_or_model).first()
                or ModelEntry.objects.filter(litellm_model=slug_or_model).first()
            )
            if entry is None:
                raise EvaluationError(f"unknown model {slug_or_model!r}")
            cache[slug_or_model] = entry.to_config()
        return cache[slug_or_model]

    return resolve


def _finished_reader(run_id: int):
    """ctx.finished: named details fields of the run's finished items, read as JSON keys in
    the database (a game's details hold every move; the adaptive chess design needs two)."""

    def finished(fields):
        names = [str(f) for f in fields]
        rows = (ItemResult.objects.filter(run_id=run_id, state=ItemResult.State.DONE)
                .annotate(**{f"_f{i}": KT(f"details__{name}") for i, name in enumerate(names)})
                .values_list(*[f"_f{i}" for i in range(len(names))]))
        return [dict(zip(names, row, strict=True)) for row in rows]

    return finished


def execute_item(item_id: int, token: str) -> str:
    """Evaluate a claimed item. Returns the state it ended in."""
    item = ItemResult.objects.select_related(
        "run__model", "run__benchmark__judge", "run__job"
    ).get(pk=item_id)
    run = item.run
    family = get_family(run.benchmark.family)
    config = run.spec.get("config", run.benchmark.config)
    override = run.job.params_override or {}
    model = run.model.to_config()
    if override:
        model = ModelConfig(**{**model.__dict__, "params": {**model.params, **override}})
    judge = run.benchmark.judge.to_config() if run.benchmark.judge_id else None

    def generate(messages, *, model, sample_index=0, purpose="model", params=None):
        completion = gateway().complete(messages, model=model, sample_index=sample_index,
                                        purpose=purpose, params=params)
        # the evaluator stores what it is given: hand it text the database can hold
        clean = storable(completion.text)
        return completion if clean is completion.text else dataclasses.replace(completion, text=clean)

    def checkpoint(state: dict) -> None:
        if not services.item_heartbeat(item_id=item_id, token=token, checkpoint=state):
            raise JobCancelled("this worker no longer holds the item")

    heartbeat = _Heartbeat(item_id, token)
    job_cancelled = _cancel_checker(run.job_id)

    def is_cancelled() -> bool:
        # A lost lease means another worker took the item over: stop spending on it here.
        return heartbeat.lost or job_cancelled()

    ctx = EvalContext(
        generate=generate, checkpoint=checkpoint, resume=item.checkpoint,
        is_cancelled=is_cancelled, resolve_model=_resolver(), judge=judge,
        finished=_finished_reader(run.pk),
    )
    heartbeat.start()
    scope_set(CallScope(run_id=run.pk, item_id=item_id))
    try:
        ctx.check_cancelled()
        outcome = family.evaluate(
            config=config, model=model, item=ItemKey(item.item_key, item.sample_index), ctx=ctx
        )
    except JobCancelled:
        services.item_cancel(item_id=item_id, token=token)
        return ItemResult.State.CANCELLED
    except (OperationalError, InterfaceError) as exc:
        raise InfrastructureError(str(exc)) from exc
    except Exception as exc:  # any other failure is recorded with its reason, never lost
        reason = _failure_reason(exc)
        log.warning("item %s failed: %s", item_id, reason.splitlines()[0])
        services.item_fail(item_id=item_id, token=token, reason=reason)
        return ItemResult.State.FAILED
    finally:
        scope_set(None)
        heartbeat.stop_event.set()
        heartbeat.join(timeout=5)
    try:
        services.item_finish(item_id=item_id, token=token, outcome=outcome)
    except (OperationalError, InterfaceError) as exc:
        raise InfrastructureError(str(exc)) from exc
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
        log.warning("could not release item %s; its lease will expire and the reaper requeues it", item_id)
