"""One worker host keeps hundreds of model-bound items in flight (a thread-pool worker on the LLM
queue), and every item of a 300-item job lands exactly once, each call paid once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import Reply
from tests.fixtures.services import wait_for
from tests.requirements import require

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_300_items_at_once_on_one_host_each_exactly_once(
    celery_worker, fake_llm, fake_model, demo_exam
):
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")
    fake_llm.rule = lambda request: Reply(text="The answer is \\boxed{1}.", latency=3.0)
    celery_worker(concurrency=1, llm_concurrency=300, lease=30)
    job = services.job_submit(
        models=[fake_model], benchmarks=[demo_exam], samples=50
    )  # 6 problems x 50
    assert job.total_items == 300
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=300,
        what="the 300-item job to finish",
    )

    job.refresh_from_db()
    items = ItemResult.objects.filter(run__job=job)
    assert job.done_items == job.total_items == items.count() == items.filter(state="done").count()
    assert not items.values("item_key", "sample_index").annotate(n=Count("id")).filter(n__gt=1)
    assert items.filter(attempts=1).count() == job.total_items  # none claimed twice
    paid = LLMCall.objects.filter(run__job=job, cache_hit=False, error_class="")
    assert paid.count() == job.total_items == fake_llm.counters.successful
    assert paid.values("request_hash").distinct().count() == job.total_items
    # far more calls at the provider at once than any process count: the threads waited together
    assert fake_llm.counters.max_in_flight >= 100, fake_llm.counters.max_in_flight
