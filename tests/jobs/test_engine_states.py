"""The item state machine, run in-process: claims, finishing, failing, cancel, resume, reaper."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalog.models import ModelEntry
from evaluators.base import ItemOutcome
from jobs import services
from jobs.models import ItemResult, Job, Run
from jobs.runner import execute_item

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reference(catalog) -> ModelEntry:
    return ModelEntry.objects.get(litellm_model="builtin/reference")


def test_it_creates_one_row_per_item_and_sample(demo_exam, reference):
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=3)
    run = job.runs.get()
    keys = set(run.items.values_list("item_key", flat=True))
    assert run.total_items == job.total_items == run.items.count() == 3 * len(keys)
    assert set(run.items.values_list("sample_index", flat=True)) == {0, 1, 2}
    assert run.spec["benchmark"] == demo_exam.slug and run.spec["code_version"]
    assert run.spec_hash and len(run.spec_hash) == 64


def test_it_lets_only_one_worker_claim_an_item(demo_exam, reference):
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)
    item = job.runs.get().items.first()
    first = services.item_claim(item_id=item.pk)
    second = services.item_claim(item_id=item.pk)
    assert first and second is None
    item.refresh_from_db()
    assert item.state == ItemResult.State.RUNNING and item.attempts == 1


def test_it_counts_a_finished_item_once(demo_exam, reference):
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)
    item = job.runs.get().items.first()
    token = services.item_claim(item_id=item.pk)
    outcome = ItemOutcome(score=1.0)
    assert services.item_finish(item_id=item.pk, token=token, outcome=outcome)
    assert not services.item_finish(item_id=item.pk, token=token, outcome=outcome)
    assert not services.item_fail(item_id=item.pk, token=token, reason="late")
    job.refresh_from_db()
    assert (job.done_items, job.failed_items) == (1, 0)


def test_it_ignores_a_stale_worker_after_the_item_was_taken_over(demo_exam, reference):
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)
    item = job.runs.get().items.first()
    old = services.item_claim(item_id=item.pk)
    ItemResult.objects.filter(pk=item.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert services.items_reap()["requeued"] >= 1
    new = services.item_claim(item_id=item.pk)
    assert new and new != old
    assert not services.item_finish(item_id=item.pk, token=old, outcome=ItemOutcome(score=0.0))
    assert services.item_finish(item_id=item.pk, token=new, outcome=ItemOutcome(score=1.0))
    item.refresh_from_db()
    assert item.score == 1.0 and item.attempts == 2


def test_it_fails_an_item_whose_workers_keep_dying(demo_exam, reference, settings):
    settings.PODIUM_MAX_ITEM_ATTEMPTS = 2
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)
    item = job.runs.get().items.first()
    for _ in range(2):
        assert services.item_claim(item_id=item.pk)
        ItemResult.objects.filter(pk=item.pk).update(
            lease_until=timezone.now() - timedelta(seconds=1)
        )
        services.items_reap()
    item.refresh_from_db()
    assert item.state == ItemResult.State.FAILED
    assert "worker lost 2 times" in item.error


def test_it_runs_every_item_and_aggregates_the_run(demo_exam, reference, settings):
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=2)
    for item in ItemResult.objects.filter(run__job=job):
        token = services.item_claim(item_id=item.pk)
        assert execute_item(item.pk, token) == ItemResult.State.DONE
    job.refresh_from_db()
    run = job.runs.get()
    assert job.status == Job.Status.DONE and job.done_items == job.total_items
    assert run.status == Run.Status.DONE and run.aggregated_at is not None
    # The reference answers earn full marks on every problem that has reference answers; the
    # open-ended one needs a judge, and this benchmark has none.
    (exam_file,) = (settings.BASE_DIR / demo_exam.config["path"]).glob("*.json")
    exam = json.loads(exam_file.read_text())
    answerable = {p["id"]: sum(p["points"]) for p in exam[1:] if any(a for a in p["answer"])}
    assert answerable and len(answerable) < len(exam) - 1
    for problem_id, full in answerable.items():
        assert run.metrics["problems"][problem_id]["P"] == pytest.approx(full)
    assert run.score == pytest.approx(sum(answerable.values()))
    assert run.metrics["answer_level_only"] is True


def test_it_cancels_pending_items_and_resume_runs_only_missing_ones(demo_exam, reference):
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=2)
    items = list(ItemResult.objects.filter(run__job=job).order_by("pk"))
    token = services.item_claim(item_id=items[0].pk)
    execute_item(items[0].pk, token)
    services.job_cancel(job=job)
    assert services.item_claim(item_id=items[1].pk) is None
    assert ItemResult.objects.filter(run__job=job, state="cancelled").count() == len(items) - 1
    done_before = ItemResult.objects.get(pk=items[0].pk)
    assert services.job_resume(job=job) == len(items) - 1
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING
    for item in items[1:]:
        execute_item(item.pk, services.item_claim(item_id=item.pk))
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.done_items == len(items)
    assert ItemResult.objects.get(pk=items[0].pk).finished_at == done_before.finished_at


def test_it_rejects_bad_submissions_without_writing(demo_exam, reference, catalog):
    hanabi_bot = (
        ModelEntry.objects.filter(litellm_model__startswith="builtin/")
        .exclude(litellm_model="builtin/reference")
        .first()
    )
    for kwargs, message in [
        ({"models": [], "benchmarks": [demo_exam]}, "at least one model"),
        ({"models": [reference], "benchmarks": []}, "at least one benchmark"),
        ({"models": [reference], "benchmarks": [demo_exam], "samples": 0}, "samples"),
        ({"models": [hanabi_bot], "benchmarks": [demo_exam]}, "cannot play hipho"),
    ]:
        with pytest.raises(ValidationError, match=message):
            services.job_submit(**kwargs)
    assert Job.objects.count() == 0 and ItemResult.objects.count() == 0
