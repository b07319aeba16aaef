"""The one module that talks to Celery and the broker: putting work on the queue and asking how
much is waiting. Services do database state transitions only and call these functions (from
``transaction.on_commit`` where the rows must exist first). Tests that keep the broker out of
the picture patch this module's functions (``jobs.queue.enqueue_dispatch`` and friends)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.conf import settings
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# What publishing to a lost broker raises: kombu's OperationalError (a ConnectionError), redis
# errors, and AttributeError from kombu's Redis channel when its connection was torn down under
# it (`'NoneType' object has no attribute 'hostname'` / `'client'`, celery/kombu#582).
BROKER_ERRORS = (ConnectionError, OSError, AttributeError, KombuOperationalError, RedisError)


def enqueue_items(item_ids: Sequence[int]) -> None:
    """Queue one evaluate_item message per item. Duplicates are harmless: claiming is conditional.
    A lost broker raises (the reaper, which calls this, tries again on its next beat)."""
    from jobs.tasks import evaluate_item

    for item_id in item_ids:
        evaluate_item.delay(item_id)


def enqueue_job_items(job_id: int, item_ids: Sequence[int]) -> int:
    """Queue a job's items; if the broker goes away part way, stop and return how many were
    queued: the items left PENDING are queued again by the reaper once the queue is reachable
    (and empty). Raising instead failed the task (or, with kombu's half-closed channel, took
    the worker down) and left the job pending."""
    from jobs.tasks import evaluate_item

    for n, item_id in enumerate(item_ids):
        try:
            evaluate_item.delay(item_id)
        except BROKER_ERRORS as exc:
            log.warning("job %s: broker lost after queueing %d of %d items; the reaper queues "
                        "the rest: %r", job_id, n, len(item_ids), exc)
            return n
    return len(item_ids)


def enqueue_dispatch(job_id: int) -> None:
    """Queue the task that fans a job out into item messages."""
    from jobs.tasks import dispatch_job

    try:
        dispatch_job.delay(job_id)
    except BROKER_ERRORS as exc:
        # The job's rows are committed; the reaper queues the PENDING items of live jobs
        # whose messages are missing, so a submit never fails because Redis blinked.
        log.warning("job %s: broker unavailable, the reaper will queue its items: %r", job_id, exc)


def queue_depth() -> int:
    """Messages waiting in the default queue (Redis broker: the length of its list)."""
    from podium.celery import app

    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        return int(client.llen(settings.CELERY_TASK_DEFAULT_QUEUE))


def queue_is_empty() -> bool:
    return queue_depth() == 0
