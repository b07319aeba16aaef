"""The database connections of a worker are terminated (pg_terminate_backend) while it is in the
middle of items, three times over: every item ends exactly once with a complete record (whether
the health-checked pool gave it a fresh connection or it was released and retried), and the
counters agree with the rows (nothing half-written).

PostgreSQL only (SQLite has no server connections to drop); CI runs it against PostgreSQL."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job, LLMCall, Run
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for
from tests.requirements import require

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate_other_backends() -> int:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cur.fetchone()[0]


def test_it_retries_items_whose_database_connection_dropped(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam
):
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")
    latency = {"s": 1.0}
    paid_rule(lambda request: Reply(text=boxed_rule(request), latency=latency["s"]))
    worker = celery_worker(concurrency=2, lease=4)
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)

    dropped = 0
    for _ in range(3):
        # an item is between its claim and its finishing write: waiting for the model's reply
        wait_for(
            lambda: ItemResult.objects.filter(run__job=job, state="running").exists(),
            timeout=90,
            what="an item in progress",
        )
        time.sleep(0.3)
        dropped += _terminate_other_backends()
        time.sleep(1.2)
    assert dropped >= 3
    latency["s"] = 0.02

    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=150,
        what="the job to finish after the dropped connections",
    )
    log = worker.log()
    # A dropped connection is absorbed one of two ways: the health-checked pool hands the item a
    # fresh connection (items give theirs back while they wait on the model), or the item is
    # released and retried. Either is fine; a database error escaping the task is not.
    assert "raised unexpected: OperationalError" not in log, "a database error escaped the task"

    job.refresh_from_db()
    run = Run.objects.get(job=job)
    items = ItemResult.objects.filter(run=run)
    assert job.failed_items == 0 and job.done_items == job.total_items == items.count() == 7
    assert not items.values("item_key", "sample_index").annotate(n=Count("id")).filter(n__gt=1)
    # each finished item is whole: the finishing write is one transaction
    for item in items:
        assert item.state == "done" and item.score is not None and item.finished_at is not None
        assert item.checkpoint is None and item.claim_token and item.lease_until is None
        assert item.details.get("reply") and [t for t in item.transcript if t["role"] == "reply"]
    # the counters moved exactly once per item
    assert (run.done_items, run.failed_items) == (7, 0)
    assert run.status == "done" and run.aggregated_at is not None
    assert not LLMCall.objects.filter(run=run, item__isnull=True).exists()


def test_it_keeps_renewing_the_lease_after_the_heartbeat_connection_dropped(
    fake_model, hipho_exam, settings
):
    """The process's lease keeper runs in its own thread with its own connection; once that
    connection is killed, the next rounds must reconnect, or a live item would be taken over."""
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")
    from jobs.leases import LeaseKeeper

    settings.PODIUM_ITEM_LEASE_SECONDS = 2  # a round every 0.67 s
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)
    item = ItemResult.objects.filter(run__job=job).first()
    token = services.item_claim(item_id=item.pk)
    keeper = LeaseKeeper()
    lease = keeper.hold(item.pk, token)
    try:
        time.sleep(1.0)
        assert _terminate_other_backends() >= 1  # the keeper's connection (pooled or not)
        dropped_at = time.time()
        time.sleep(2.5)
        until = ItemResult.objects.get(pk=item.pk).lease_until.timestamp()
        assert until > dropped_at + 2.0, "no renewal got through after the connection dropped"
        assert not lease.lost
    finally:
        keeper.release(lease)
