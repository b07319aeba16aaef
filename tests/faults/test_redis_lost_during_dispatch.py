"""Redis dies while dispatch_job is queueing a job's items. The worker must survive (it was
seen stopping with "Unrecoverable error: AttributeError('NoneType' object has no attribute
'hostname')"), the dispatch task must not fail, and once Redis is back the reaper queues the items the
dispatcher could not, so the job goes on.

Runs against a private redis-server on a free port: the machine's Redis is shared."""

from __future__ import annotations

import re
import time

import pytest
import redis
from django.db.models import Count

from catalog.models import ModelEntry
from jobs import services
from jobs.models import ItemResult, Job
from tests.faults.test_redis_restarted_mid_job import broker_on  # noqa: F401  (fixture)
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_survives_redis_dying_during_dispatch(
    celery_worker,
    catalog,
    hipho_exam,
    private_redis,
    broker_on,  # noqa: F811
    settings,
):
    # a long dispatch (700 items) needs more samples than the default cap allows
    settings.PODIUM_MAX_SAMPLES = 100
    broker_on(private_redis.url)
    reference = ModelEntry.objects.get(litellm_model="builtin/reference")
    # built-in players only: the items and the dispatcher are on the CPU queue (jobs.queue)
    worker = celery_worker(concurrency=2, lease=5, kind="cpu", REDIS_URL=private_redis.url)
    client = redis.Redis.from_url(private_redis.url)
    queue = worker.proc.args[worker.proc.args.index("-Q") + 1]
    job = services.job_submit(models=[reference], benchmarks=[hipho_exam], samples=100)  # 700 items

    # the dispatcher has started queueing items: kill Redis under it
    wait_for(lambda: client.llen(queue) > 5, timeout=60, interval=0.005, what="dispatch to start")
    private_redis.kill()
    time.sleep(2.0)
    private_redis.start()

    # the reaper finds the live job's PENDING items without messages and queues them
    wait_for(
        lambda: max(map(int, re.findall(r"'orphans': (\d+)", worker.log())), default=0) > 0,
        timeout=60,
        what="the reaper to queue the items the dispatcher could not",
    )
    wait_for(lambda: Job.objects.get(pk=job.pk).done_items > 0, timeout=60, what="progress")
    log = worker.log()
    assert worker.proc.poll() is None, "the worker died: " + log[-3000:]
    assert "Unrecoverable error" not in log
    assert not re.search(r"dispatch_job\[[^\]]+\] raised unexpected", log), log[-3000:]
    assert "broker lost after queueing" in log, "Redis did not die during the dispatch"
    services.job_cancel(
        job=job
    )  # the rest is the reaper's ordinary work (test_redis_restarted_mid_job)
    items = ItemResult.objects.filter(run__job=job)
    assert not items.values("item_key", "sample_index").annotate(n=Count("id")).filter(n__gt=1)
