"""SIGKILL a worker (parent and pool) while several slow model calls are in flight: the host's
call service finishes and stores those calls, and the worker that takes the items over reads
the replies back. Every request is billed once, and every billed call is in the cost records.

Without the call service (the worker sending its calls itself) the calls in flight at the kill
are lost and sent again once their items are taken over: this test then fails on paid_twice.
"""

from __future__ import annotations

import pytest
from django.db.models import Count

from jobs import services
from jobs.llm_wiring import INTENT_CLASS
from jobs.models import CachedResponse, ItemResult, Job, LLMCall
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

LATENCY_S = 4.0


def test_it_pays_each_request_once_when_the_worker_is_killed_mid_calls(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam
):
    paid = paid_rule(lambda request: Reply(text=boxed_rule(request), latency=LATENCY_S))
    # 4 threads for 7 items: the kill lands with 4 calls in flight and 3 items not yet started.
    # One sample each: two samples of a problem send the same body to the provider (the sample
    # index is in the request hash, not in the body), which the paid log could not tell apart.
    first = celery_worker(concurrency=1, llm_concurrency=4, lease=3)
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)
    wait_for(lambda: fake_llm.counters.in_flight >= 4, timeout=120, what="four calls in flight")
    in_flight_at_kill = fake_llm.counters.in_flight
    first.kill()  # SIGKILL, parents and pool children; the call service lives on
    assert fake_llm.counters.in_flight >= 4, "the calls ended with the worker"

    celery_worker(concurrency=1, llm_concurrency=4, lease=3)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=240,
        what="the job to finish on the second worker",
    )
    job.refresh_from_db()
    assert job.failed_items == 0 and job.done_items == job.total_items == 7
    assert not ItemResult.objects.filter(run__job=job).exclude(state="done").exists()

    # the provider billed each distinct request once: none of the calls in flight at the kill
    # was sent again
    assert not paid.paid_twice(), paid.paid_twice()
    assert paid.paid == 7
    assert CachedResponse.objects.filter(model=fake_model.litellm_model).count() == 7
    # every billed call is in the cost records, once, closed (no intent row left open)
    billed_rows = LLMCall.objects.filter(cache_hit=False, error_class="")
    assert billed_rows.count() == paid.paid
    assert not billed_rows.values("request_hash").annotate(n=Count("id")).filter(n__gt=1)
    assert not LLMCall.objects.filter(error_class=INTENT_CLASS).exists()
    assert billed_rows.filter(run__job=job).count() == paid.paid
    # the calls in flight at the kill reached the items of the second worker as stored replies
    reused = LLMCall.objects.filter(run__job=job, cache_hit=True).count()
    assert reused >= in_flight_at_kill, (reused, in_flight_at_kill)
