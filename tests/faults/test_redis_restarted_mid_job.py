"""Redis (broker) killed and restarted without persistence in the middle of a job: the queued
messages are gone, the workers reconnect, the reaper notices live jobs with PENDING items and an
empty queue and queues them again, and the job completes with every item exactly once.

Runs against a private redis-server on a free port: the machine's Redis is shared."""

from __future__ import annotations

import re
import time

import pytest
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_on(settings):
    """Point this test process's Celery producer at another Redis, and back afterwards."""
    from podium.celery import app

    saved = app.conf.broker_url

    def switch(url: str) -> None:
        settings.CELERY_BROKER_URL = url
        app.conf.broker_url = url
        # drop (do not close) the cached pools: kombu keeps them in a global registry, and a
        # closed one would be handed back when the URL is switched back
        app._pool = None
        app.amqp._producer_pool = None  # rebuilt from broker_url on the next send

    yield switch
    switch(saved)


def test_it_completes_a_job_when_redis_restarts_empty(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam, private_redis, broker_on
):
    broker_on(private_redis.url)
    latency = {"s": 0.8}
    log = paid_rule(lambda request: Reply(text=boxed_rule(request), latency=latency["s"]))
    worker = celery_worker(concurrency=2, lease=3, REDIS_URL=private_redis.url)
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)
    wait_for(lambda: Job.objects.get(pk=job.pk).done_items >= 1, timeout=90, what="an item done")

    private_redis.kill()  # every queued message is lost with it
    time.sleep(1.5)
    private_redis.start()
    latency["s"] = 0.05
    restarted = Job.objects.get(pk=job.pk)
    assert restarted.done_items < restarted.total_items, "the job finished before the restart"

    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=150,
        what="the job to finish after the Redis restart",
    )
    job.refresh_from_db()
    assert job.failed_items == 0 and job.done_items == job.total_items == 7
    items = ItemResult.objects.filter(run__job=job)
    assert items.count() == 7 and not items.exclude(state="done").exists()
    assert not items.values("item_key", "sample_index").annotate(n=Count("id")).filter(n__gt=1)
    # the worker survived the outage (no restart), and the reaper re-queued lost messages
    assert worker.proc.poll() is None
    text = worker.log()
    orphans = [int(n) for n in re.findall(r"'orphans': (\d+)", text)]
    assert max(orphans, default=0) >= 1, "the reaper never re-queued a lost message"
    assert sum(n - 1 for n in log.paid_twice().values()) <= 2  # at most the calls in flight
