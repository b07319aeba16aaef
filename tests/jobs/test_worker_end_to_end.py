"""A real Celery worker process on real Redis evaluates a job whose model is reached through
litellm over HTTP (the fake OpenAI-compatible server); then the rows are checked."""

from __future__ import annotations

import re

import pytest
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def boxed_reference_rule(request):
    """Answers every question with \\boxed{1}: a real reply the grader must mark."""
    return "Let me think step by step. The answer is \\boxed{1}."


def test_it_runs_a_job_in_a_worker_and_stores_every_row(
    celery_worker, fake_llm, fake_model, demo_exam
):
    fake_llm.rule = boxed_reference_rule
    fake_llm.configure(latency=0.05)
    celery_worker(concurrency=2)
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=2)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=120,
        what="the job to finish",
    )
    job.refresh_from_db()
    run = job.runs.get()
    assert job.done_items == job.total_items == run.items.count() > 0
    assert job.failed_items == 0
    assert not ItemResult.objects.filter(run=run).exclude(state="done").exists()
    assert run.aggregated_at is not None and run.metrics["n_items"] >= 1
    assert run.score is not None
    # every model call went over HTTP once, was logged with its tokens, and is in the cache
    model_calls = LLMCall.objects.filter(run=run, purpose="model")
    assert model_calls.count() == job.total_items
    assert fake_llm.counters.requests == model_calls.filter(cache_hit=False).count()
    assert all(c.input_tokens > 0 and c.output_tokens > 0 for c in model_calls)
    assert run.input_tokens == sum(c.input_tokens for c in model_calls)
    item = run.items.first()
    assert any("\\boxed{1}" in str(entry.get("text", "")) for entry in item.transcript)


def test_it_pays_nothing_when_the_same_job_runs_again(
    celery_worker, fake_llm, fake_model, demo_exam
):
    fake_llm.rule = boxed_reference_rule
    celery_worker(concurrency=2)
    first = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=first.pk).status == Job.Status.DONE,
        timeout=120,
        what="the first job",
    )
    served = fake_llm.counters.requests
    second = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=second.pk).status == Job.Status.DONE,
        timeout=120,
        what="the second job",
    )
    assert fake_llm.counters.requests == served
    calls = LLMCall.objects.filter(run__job=second)
    assert calls.count() == second.total_items and all(c.cache_hit for c in calls)
    assert second.runs.get().score == first.runs.get().score


def test_it_completes_a_job_after_its_worker_is_killed(
    celery_worker, fake_llm, fake_model, demo_exam
):
    """SIGKILL the worker (parent and pool) mid-job; a new worker finishes it: every item exactly
    once, counters exact, and no call that had succeeded is paid for again."""
    fake_llm.rule = boxed_reference_rule
    fake_llm.configure(latency=0.4)
    first = celery_worker(concurrency=2, lease=6)
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=6)
    assert job.total_items >= 12
    wait_for(lambda: Job.objects.get(pk=job.pk).done_items >= 4, timeout=120, what="4 items done")
    first.kill()
    killed_at = Job.objects.get(pk=job.pk)
    assert killed_at.done_items < job.total_items, "the job finished before the kill"
    assert (
        ItemResult.objects.filter(run__job=job, state="running").exists()
        or ItemResult.objects.filter(run__job=job, state="pending").exists()
    )
    celery_worker(concurrency=2, lease=6)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=180,
        what="the job to finish on the second worker",
    )
    job.refresh_from_db()
    run = job.runs.get()
    assert job.done_items == job.total_items == run.items.count()
    assert job.failed_items == 0
    assert run.items.filter(state="done").count() == job.total_items
    # the unique constraint holds and no item row was created twice
    assert not run.items.values("item_key", "sample_index").annotate(n=Count("id")).filter(n__gt=1)
    # a call whose reply we had received is never sent again: at most one paid success per request
    paid = (
        LLMCall.objects.filter(run=run, cache_hit=False, error_class="")
        .values("request_hash")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert not paid
    retried = run.items.filter(attempts__gt=1).count()
    assert retried >= 1, "no item was taken over from the killed worker"
    assert re.search(r"jobs.evaluate_item", first.log())
