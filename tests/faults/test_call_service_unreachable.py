"""A worker whose host's call service is not running gives its items back with a clear
transient error (never sending the calls itself), and finishes them once the service is up."""

from __future__ import annotations

import tempfile

import pytest

from evaluators.llm import CallServiceUnavailable, Gateway
from evaluators.llm_service import CallServiceClient
from jobs import services
from jobs.models import Job, LLMCall
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_gateway_without_its_service_raises_a_clear_error(fake_llm, tmp_path):
    address = f"unix:{tempfile.mkdtemp(prefix='podium-cs-')}/absent.sock"
    gateway = Gateway(service=CallServiceClient(address))
    with pytest.raises(CallServiceUnavailable) as raised:
        gateway.complete([{"role": "user", "content": "hi"}], model=fake_llm.model_config())
    assert f"call service at {address} is unreachable" in str(raised.value)
    assert "podium_callservice" in str(raised.value)
    assert fake_llm.counters.requests == 0


def test_items_wait_for_the_call_service_and_finish_when_it_starts(
    celery_worker, call_service, fake_llm, paid_rule, fake_model, hipho_exam
):
    paid = paid_rule(boxed_rule)
    address = f"unix:{tempfile.mkdtemp(prefix='podium-cs-')}/calls.sock"
    worker = celery_worker(concurrency=1, llm_concurrency=4, call_service=address)
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)
    wait_for(
        lambda: f"call service at {address} is unreachable" in worker.log(),
        timeout=120,
        what="the worker to report the missing call service",
    )
    job.refresh_from_db()
    assert job.failed_items == 0  # given back, not failed
    assert paid.paid == 0 and fake_llm.counters.requests == 0  # nothing sent around the service

    call_service(address=address)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=240,
        what="the job to finish once the call service is up",
    )
    job.refresh_from_db()
    assert job.failed_items == 0 and job.done_items == job.total_items == 7
    assert paid.paid == 7 and not paid.paid_twice()
    assert LLMCall.objects.filter(run__job=job, cache_hit=False, error_class="").count() == 7
