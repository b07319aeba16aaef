"""Two workers, each with its own beat scheduler (so two reapers), and the job dispatched three
times over (duplicate messages for every item): each item is still evaluated exactly once,
because claiming is a conditional UPDATE."""

from __future__ import annotations

import pytest
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_evaluates_each_item_once_with_two_workers_two_schedulers_and_duplicate_messages(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam
):
    paid = paid_rule(lambda request: Reply(text=boxed_rule(request), latency=0.3))
    a = celery_worker(concurrency=2, beat=True, reaper=0.5, lease=10, wait=False)
    b = celery_worker(concurrency=2, beat=True, reaper=0.5, lease=10, wait=False)
    a.wait_ready()
    b.wait_ready()
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)
    for _ in range(2):  # the same messages again, as a second scheduler or an operator might
        services.job_dispatch(job_id=job.pk)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=120,
        what="the job to finish",
    )

    job.refresh_from_db()
    items = ItemResult.objects.filter(run__job=job)
    assert (job.done_items, job.failed_items, items.count()) == (7, 0, 7)
    assert set(items.values_list("attempts", flat=True)) == {1}
    assert not items.values("item_key", "sample_index").annotate(n=Count("id")).filter(n__gt=1)
    # one model call per item, each request body paid once
    assert not paid.paid_twice() and paid.paid == 7
    assert LLMCall.objects.filter(run__job=job).count() == 7
    # both workers took part
    worked = [w for w in (a, b) if "evaluate_item" in w.log() and "'done'" in w.log()]
    assert len(worked) == 2
