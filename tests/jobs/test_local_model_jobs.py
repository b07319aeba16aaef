"""Through a real worker host: a model on a local server with no key variable completes a job,
and a 401 from the endpoint fails each item at once (one request, no retry) with a clear reason."""

from __future__ import annotations

import pytest

from catalog.models import ModelEntry
from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import error
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _local(fake_llm, slug):
    return ModelEntry.objects.create(
        slug=slug,
        display_name=slug,
        litellm_model=f"openai/{slug}",
        api_base=fake_llm.base_url,
        api_key_env="",
        params={"temperature": 0.6},
    )


def test_a_keyless_local_model_completes_and_a_401_fails_at_once(
    celery_worker, fake_llm, demo_exam
):
    def rule(request):
        if request["model"] == "locked":
            return error(401, "Unauthorized", "invalid_api_key")
        return "The answer is \\boxed{1}."

    fake_llm.rule = rule
    open_model, locked = _local(fake_llm, "open"), _local(fake_llm, "locked")
    celery_worker(concurrency=2)
    job = services.job_submit(models=[open_model, locked], benchmarks=[demo_exam], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=180,
        what="the job to finish",
    )

    done = ItemResult.objects.filter(run__job=job, run__model=open_model)
    assert done.count() == done.filter(state="done").count() > 0
    failed = ItemResult.objects.filter(run__job=job, run__model=locked)
    assert failed.count() == failed.filter(state="failed").count() == done.count()
    for item in failed:
        assert "authentication failed (HTTP 401)" in item.error and item.attempts == 1
    locked_requests = [r for r in fake_llm.counters.requests_json if r["model"] == "locked"]
    assert len(locked_requests) == failed.count()  # one request per item: never retried
    calls = LLMCall.objects.filter(run__job=job, run__model=locked)
    assert calls.count() == failed.count()
    assert all(c.error_class == "AuthenticationError" and c.retries == 0 for c in calls)
