"""The one module that talks to Celery and the broker: putting work on the queue and asking how
much is waiting. Services do database state transitions only and call these functions (from
``transaction.on_commit`` where the rows must exist first). Tests that keep the broker out of
the picture patch this module's functions (``jobs.queue.enqueue_dispatch`` and friends).

Items go to one of two queues, by what they wait on:

* ``<PODIUM_QUEUE>-llm``: items whose time is spent waiting on a language model (the run's
  model, or a partner/opponent it plays with, is not built in). A worker with a thread pool
  serves it: hundreds of items wait at once in one process, their HTTP requests multiplexed on
  the gateway's one event loop (evaluators/llm.py); the per-model concurrency caps and the Redis
  rpm/tpm windows throttle the calls, not the thread count.
* ``<PODIUM_QUEUE>`` (the default queue): CPU-bound items (built-in players: rule bots,
  Stockfish levels, the reference baselines) and the engine's own tasks (dispatch, the lease
  reaper). A prefork worker with one process per core serves it.

Both names derive from PODIUM_QUEUE, so a test session (or a second deployment on one Redis)
isolates both by setting that one variable. Names are read at call time because the test
fixture switches the default queue after settings are loaded.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

from evaluators.base import BUILTIN_PREFIX

log = logging.getLogger(__name__)

# What publishing to a lost broker raises: kombu's OperationalError (a ConnectionError), redis
# errors, and AttributeError from kombu's Redis channel when its connection was torn down under
# it (`'NoneType' object has no attribute 'hostname'` / `'client'`, celery/kombu#582).
BROKER_ERRORS = (ConnectionError, OSError, AttributeError, KombuOperationalError, RedisError)

LLM_SUFFIX = "-llm"
_CHUNK = 1000


def cpu_queue() -> str:
    return settings.CELERY_TASK_DEFAULT_QUEUE


def llm_queue() -> str:
    return cpu_queue() + LLM_SUFFIX


def all_queues() -> tuple[str, str]:
    return cpu_queue(), llm_queue()


def referenced_models(config: Mapping[str, Any]) -> list[str]:
    """Slugs of the other models a benchmark configuration plays with: Hanabi cross-play
    ``partners`` and chess ``opponents[].model``. (The run's own model is not included.)"""
    found: list[str] = []
    partners = config.get("partners")
    if isinstance(partners, list):
        found += [p for p in partners if isinstance(p, str)]
    opponents = config.get("opponents")
    if isinstance(opponents, list):
        found += [
            o["model"] for o in opponents if isinstance(o, dict) and isinstance(o.get("model"), str)
        ]
    return found


def spec_needs_llm(spec: Mapping[str, Any]) -> bool:
    """Whether a run's items wait on a language model, from its frozen spec: its model string,
    and the frozen models it plays with (``partner_models``). A run submitted before those were
    recorded is routed by its model alone (a built-in whose partner is an LLM then runs on the
    CPU queue: fewer in flight, still correct)."""
    if not str(spec.get("model", "")).startswith(BUILTIN_PREFIX):
        return True
    partners = spec.get("partner_models") or {}
    return any(not str(p.get("model", "")).startswith(BUILTIN_PREFIX) for p in partners.values())


def queue_for_spec(spec: Mapping[str, Any]) -> str:
    return llm_queue() if spec_needs_llm(spec) else cpu_queue()


def _routes(item_ids: Sequence[int]) -> list[tuple[int, str]]:
    """(item id, queue) in the caller's order; items deleted meanwhile are left out."""
    from jobs.models import ItemResult, Run

    run_of: dict[int, int] = {}
    for start in range(0, len(item_ids), _CHUNK):
        chunk = item_ids[start : start + _CHUNK]
        run_of.update(ItemResult.objects.filter(pk__in=chunk).values_list("id", "run_id"))
    queue_of_run = {
        run_id: queue_for_spec(spec or {})
        for run_id, spec in Run.objects.filter(pk__in=set(run_of.values())).values_list(
            "id", "spec"
        )
    }
    return [(i, queue_of_run[run_of[i]]) for i in item_ids if i in run_of]


def enqueue_items(item_ids: Sequence[int]) -> None:
    """Queue one evaluate_item message per item, on its run's queue. Duplicates are harmless:
    claiming is conditional. A lost broker raises (the reaper, which calls this, tries again on
    its next beat)."""
    from jobs.tasks import evaluate_item

    for item_id, queue in _routes(item_ids):
        evaluate_item.apply_async((item_id,), queue=queue)


def enqueue_job_items(job_id: int, item_ids: Sequence[int]) -> int:
    """Queue a job's items; if the broker goes away part way, stop and return how many were
    queued: the items left PENDING are queued again by the reaper once the queue is reachable
    (and empty). Raising instead failed the task (or, with kombu's half-closed channel, took
    the worker down) and left the job pending."""
    from jobs.tasks import evaluate_item

    routes = _routes(item_ids)
    for n, (item_id, queue) in enumerate(routes):
        try:
            evaluate_item.apply_async((item_id,), queue=queue)
        except BROKER_ERRORS as exc:
            log.warning(
                "job %s: broker lost after queueing %d of %d items; the reaper queues the rest: %r",
                job_id,
                n,
                len(routes),
                exc,
            )
            return n
    return len(routes)


def enqueue_dispatch(job_id: int) -> None:
    """Queue the task that fans a job out into item messages."""
    from jobs.tasks import dispatch_job

    try:
        dispatch_job.delay(job_id)
    except BROKER_ERRORS as exc:
        # The job's rows are committed; the reaper queues the PENDING items of live jobs
        # whose messages are missing, so a submit never fails because Redis blinked.
        log.warning("job %s: broker unavailable, the reaper will queue its items: %r", job_id, exc)


def queue_depth(queues: Iterable[str] | None = None) -> int:
    """Messages waiting in the broker (Redis: the lengths of the lists), over both queues."""
    from podium.celery import app

    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        return sum(int(client.llen(q)) for q in (queues or all_queues()))


def queue_is_empty() -> bool:
    return queue_depth() == 0
