"""The model endpoint misbehaves on 30% of requests: 429 with Retry-After, 500, hung requests
(timeouts), truncated bodies, malformed JSON, empty replies. The job completes; an item whose
calls keep failing past the retries is marked failed with the reason; a resume retries only the
failed items, and pays for nothing that was already done."""

from __future__ import annotations

import time

import pytest

from evaluators.hipho.source import exams_for
from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import FAULT_KINDS, Reply, fault
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_completes_under_faults_fails_only_hopeless_items_and_resumes_those(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam
):
    doomed = exams_for(hipho_exam.config)[0].problems[0]
    marker = doomed.question.strip()[:60]
    state = {"broken": True}

    def rule(request):
        text = request["messages"][-1]["content"]
        text = text if isinstance(text, str) else " ".join(p.get("text", "") for p in text)
        if state["broken"] and marker in text:
            return Reply(fault="server_error")  # this problem's provider never recovers
        return boxed_rule(request)

    paid = paid_rule(rule)
    fake_llm.script(*(fault(kind) for kind in FAULT_KINDS))  # every kind at least once, first
    fake_llm.configure(
        fault_rate=0.3, fault_kinds=FAULT_KINDS, hang_s=2.0, retry_after="1", latency=0.02
    )
    celery_worker(
        concurrency=3,
        lease=5,
        PODIUM_LLM_TIMEOUT_SECONDS="1",
        PODIUM_LLM_MAX_RETRIES="3",
        PODIUM_LLM_BACKOFF_BASE_SECONDS="0.1",
    )
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=3)
    assert job.total_items == 21
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=240,
        what="the job to end under 30% faults",
    )

    job.refresh_from_db()
    items = ItemResult.objects.filter(run__job=job)
    assert job.done_items + job.failed_items == job.total_items
    failed = items.filter(state="failed")
    doomed_items = items.filter(item_key=doomed.id)
    assert set(doomed_items.values_list("state", flat=True)) == {"failed"}
    assert job.failed_items == failed.count() >= 3
    for item in failed:
        # the reason names the error class and that retries were exhausted
        assert "TransientLLMError" in item.error and "gave up after" in item.error, item.error
    # every kind of fault was served, and the gateway's retries are in the call log
    assert set(fake_llm.counters.faults) == set(FAULT_KINDS)
    assert LLMCall.objects.filter(run__job=job, retries__gt=0).exists()
    assert LLMCall.objects.filter(run__job=job).exclude(error_class="").exists()

    # resume with a healthy endpoint: only the failed items run again, each one call
    fake_llm.configure(fault_rate=0.0)
    state["broken"] = False
    done_before = dict(items.filter(state="done").values_list("pk", "finished_at"))
    failed_ids = set(failed.values_list("pk", flat=True))
    served_before = fake_llm.counters.requests
    resume_at = time.time()
    assert services.job_resume(job=job) == len(failed_ids)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=120,
        what="the resumed job to end",
    )
    job.refresh_from_db()
    assert (job.done_items, job.failed_items) == (21, 0)
    assert dict(items.filter(pk__in=done_before).values_list("pk", "finished_at")) == done_before
    assert items.filter(pk__in=failed_ids, state="done", attempts=2).count() == len(failed_ids)
    # the doomed problem's three samples share one request body: one call per failed item
    assert fake_llm.counters.requests - served_before == len(failed_ids)
    assert paid.paid_since(resume_at) == len(failed_ids)
