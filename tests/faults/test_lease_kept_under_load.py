"""A live thread-pool worker keeps every lease it holds, however busy it is.

Hundreds of items in flight on one thread-pool worker, with a short lease and the process's
database pool small enough that item threads queue for connections (pool pressure), plus CPU
burners on the machine (CPU pressure): the lease reaper, running every second, must take over
no item while its worker lives. It took 95-157 of 240 over when the keeper was a thread drawing
from the pool (2.4 s waits for a connection), and 1-36 of 240 when that thread had a connection
of its own but still shared the GIL with 200 item threads (rounds 2.5 s apart instead of 0.67 s);
each such item was evaluated twice, and paid twice when both calls were in flight."""

from __future__ import annotations

import multiprocessing
import time

import pytest
from django.db import connection
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import Reply
from tests.fixtures.services import wait_for
from tests.requirements import require

pytestmark = pytest.mark.django_db(transaction=True)


def _burn(until: float) -> None:
    while time.time() < until:
        pass


@pytest.fixture
def cpu_pressure():
    """Two processes spinning (one per core of the CI machine) while the test runs."""
    until = time.time() + 600
    procs = [multiprocessing.Process(target=_burn, args=(until,), daemon=True) for _ in range(2)]
    for p in procs:
        p.start()
    yield
    for p in procs:
        p.terminate()
        p.join(10)


def test_it_takes_no_item_over_from_a_live_worker_under_pool_and_cpu_pressure(
    celery_worker, fake_llm, fake_model, demo_exam, cpu_pressure
):
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")
    fake_llm.rule = lambda request: Reply(text="The answer is \\boxed{1}.", latency=2.0)
    # lease 3 s (renewed every second; the reaper looks every second), and ONE pooled
    # connection for 200 item threads: they queue for it at every claim, cache write, call log
    # and finish, and so did the keeper when it drew from the pool
    worker = celery_worker(concurrency=1, llm_concurrency=200, lease=3, PODIUM_DB_POOL_SIZE="1")
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=40)
    assert job.total_items == 240
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=400,
        what="the job to finish",
    )

    items = ItemResult.objects.filter(run__job=job)
    taken_over = list(items.filter(attempts__gt=1).values_list("pk", flat=True))
    assert worker.llm.proc.poll() is None, "the worker died during the job"
    log = worker.log()
    assert not taken_over, (
        f"{len(taken_over)} of {job.total_items} items taken over from a live worker; "
        "slow renewals and the first takeovers:\n"
        + "\n".join(
            line for line in log.splitlines() if "renewing" in line or "lease round" in line
        )[-2000:]
        + "\n".join(line for line in log.splitlines() if "taken over" in line)[:2000]
        + "\nwhat the worker said of them:\n"
        + "\n".join(
            line
            for line in log.splitlines()
            if any(f"item {pk}:" in line or f"({pk},)" in line for pk in taken_over[:3])
        )[:3000]
    )
    assert items.filter(state="done").count() == job.total_items
    trips = (
        LLMCall.objects.filter(run__job=job, purpose="model")
        .values("item_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert not trips, f"items evaluated more than once: {list(trips)[:10]}"
    assert fake_llm.counters.successful == job.total_items
    assert fake_llm.counters.max_in_flight >= 100, fake_llm.counters.max_in_flight
