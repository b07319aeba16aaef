"""Celery tasks: thin; ids in payloads; the work is in runner.py and services.py."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_init
from django.db import InterfaceError, OperationalError, close_old_connections

from jobs import services
from jobs.runner import InfrastructureError, execute_item, release_after_infrastructure_error

log = logging.getLogger(__name__)


@worker_init.connect
def _preload_gateway(sender=None, **_kwargs) -> None:
    # Import litellm once in the parent of a worker that serves the LLM queue, before a prefork
    # pool forks: otherwise every pool process (and every replacement after a crash) pays
    # 5-20 s importing it on its first item. A worker on the CPU queue alone skips it: its items
    # rarely call a model (an LLM judge of a built-in player's run imports it then), and it is
    # 71 % of a worker's start-up CPU (2.4 of 3.3 s), paid again at every restart of a host.
    from jobs import queue

    try:
        consumed = set(sender.app.amqp.queues.consume_from)
    except AttributeError:  # no queue selection known: preload, as before
        consumed = set()
    if consumed and queue.llm_queue() not in consumed:
        return
    import evaluators.llm  # noqa: F401


@shared_task(name="jobs.dispatch_job", acks_late=True, ignore_result=True)
def dispatch_job(job_id: int) -> int:
    return services.job_dispatch(job_id=job_id)


@shared_task(
    name="jobs.evaluate_item",
    bind=True,
    acks_late=True,
    ignore_result=True,
    max_retries=None,
)
def evaluate_item(self, item_id: int) -> str | None:
    close_old_connections()
    backoff = min(2 ** min(self.request.retries, 6), 60)
    try:
        token = services.item_claim(item_id=item_id)
    except (OperationalError, InterfaceError) as exc:
        # The database went away during the claim: ask again later. (A claim that committed
        # before the failure holds the item until its lease expires and the reaper frees it.)
        log.warning("item %s: database error while claiming, retrying: %s", item_id, exc)
        close_old_connections()
        raise self.retry(countdown=backoff, exc=exc) from exc
    if token is None:
        return None  # done already, claimed by another worker, or cancelled
    try:
        return execute_item(item_id, token)
    except (InfrastructureError, OperationalError, InterfaceError) as exc:
        # (OperationalError/InterfaceError: raised while execute_item loaded the item's rows,
        # before its own handler was in place)
        # The database went away mid-item: nothing of it was written (the finishing write is one
        # transaction); give it back and try again later.
        log.warning("item %s: infrastructure error, retrying: %s", item_id, exc)
        release_after_infrastructure_error(item_id, token)
        raise self.retry(countdown=backoff, exc=exc) from exc


@shared_task(name="jobs.reap_expired_items", ignore_result=True)
def reap_expired_items() -> dict[str, int]:
    close_old_connections()
    return services.items_reap()
