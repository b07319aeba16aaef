"""A run does what its spec says: the model's parameters and the judge are frozen at submission.
Editing the model (or the benchmark's judge) after a job is submitted changes new jobs only."""

from __future__ import annotations

import pytest

from catalog.models import ModelEntry
from jobs import services
from jobs.models import Job, LLMCall
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def boxed(request):
    return "The answer is \\boxed{1}."


def _judge(fake_llm, slug, temperature):
    cfg = fake_llm.model_config(slug=slug, model=f"openai/{slug}")
    return ModelEntry.objects.create(
        slug=slug,
        display_name=slug,
        litellm_model=cfg.model,
        api_base=cfg.api_base,
        api_key_env=cfg.api_key_env,
        params={"temperature": temperature},
    )


def test_it_runs_with_the_parameters_and_judge_submitted(
    celery_worker, fake_llm, fake_model, demo_exam
):
    fake_llm.rule = boxed
    judge_a, judge_b = _judge(fake_llm, "judge-a", 0.0), _judge(fake_llm, "judge-b", 0.9)
    demo_exam.judge = judge_a
    demo_exam.save()
    fake_model.params = {"temperature": 0.6, "max_tokens": 1000}
    fake_model.save()
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)

    # edited after submission, before any worker ran the job
    fake_model.params = {"temperature": 1.7, "max_tokens": 5}
    fake_model.save()
    judge_a.params = {"temperature": 1.3}
    judge_a.save()
    demo_exam.judge = judge_b
    demo_exam.save()

    celery_worker(concurrency=2)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=180,
        what="the job to finish",
    )
    sent = list(fake_llm.counters.requests_json)
    model_requests = [r for r in sent if r["model"] == "gpt-4o-mini"]
    judge_requests = [r for r in sent if r["model"].startswith("judge")]
    assert len(model_requests) == job.total_items
    assert all(r["temperature"] == 0.6 and r["max_tokens"] == 1000 for r in model_requests)
    assert judge_requests, "the submitted judge was never asked"
    assert {r["model"] for r in judge_requests} == {"judge-a"}
    assert all(r["temperature"] == 0.0 for r in judge_requests)
    run = job.runs.get()
    assert run.spec["model_params"] == {"temperature": 0.6, "max_tokens": 1000}
    assert run.spec["judge"] == "openai/judge-a" and run.spec["judge_params"] == {
        "temperature": 0.0
    }
    assert LLMCall.objects.filter(run=run, purpose="judge").exists()

    # a job submitted now uses the edited model and the new judge
    second = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=second.pk).status == Job.Status.DONE,
        timeout=180,
        what="the second job to finish",
    )
    later = fake_llm.counters.requests_json[len(sent) :]
    assert any(r["model"] == "gpt-4o-mini" and r["max_tokens"] == 5 for r in later)
    assert {r["model"] for r in later if r["model"].startswith("judge")} <= {"judge-b"}
