"""A judge outage in the middle of a HiPhO run (the fake server starts failing every judge call
after a few have succeeded): no sample is zeroed; each item keeps its answer-level score
(P = A) and is marked judge-failed; the run counts them. Real Celery worker, litellm over HTTP."""

from __future__ import annotations

import threading

import pytest

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmarks_ensure
from jobs import services
from jobs.models import ItemResult, Job
from tests.fakes.openai_server import error
from tests.fixtures.services import wait_for
from tests.hipho_exams.test_exam_through_celery import EXPECTED, fake_rule

pytestmark = pytest.mark.django_db(transaction=True)

JUDGE_CALLS_BEFORE_OUTAGE = 3


def _is_judge(request) -> bool:
    text = request["messages"][-1]["content"]
    text = text[0]["text"] if isinstance(text, list) else text
    return "## Marking criterion" in text or "CORRECT or INCORRECT" in text


def test_a_judge_outage_keeps_the_answer_level_scores(celery_worker, fake_llm):
    lock, served = threading.Lock(), {"judge": 0}

    def rule(request):
        if _is_judge(request):
            with lock:
                served["judge"] += 1
                if served["judge"] > JUDGE_CALLS_BEFORE_OUTAGE:
                    return error(503, "judge service unavailable")
        return fake_rule(request)

    fake_llm.rule = rule
    model_cfg = fake_llm.model_config(slug="fake-solver", model="openai/fake-solver")
    judge_cfg = fake_llm.model_config(slug="fake-judge", model="openai/fake-judge")
    solver = ModelEntry.objects.create(
        slug="fake-solver",
        display_name="Fake solver",
        litellm_model=model_cfg.model,
        api_base=model_cfg.api_base,
        api_key_env=model_cfg.api_key_env,
        params={"temperature": 0.0},
    )
    judge = ModelEntry.objects.create(
        slug="fake-judge",
        display_name="Fake judge",
        litellm_model=judge_cfg.model,
        api_base=judge_cfg.api_base,
        api_key_env=judge_cfg.api_key_env,
        params={"temperature": 0.0},
    )
    (bench,) = [b for b in benchmarks_ensure("hipho") if b.slug == "hipho/podiumdemo-2025"]
    Benchmark.objects.filter(pk=bench.pk).update(judge=judge)
    bench.refresh_from_db()

    celery_worker(concurrency=2, lease=30, PODIUM_LLM_MAX_RETRIES="1")
    job = services.job_submit(models=[solver], benchmarks=[bench], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=300,
        what="the HiPhO job to finish through the judge outage",
    )
    job.refresh_from_db()
    assert job.failed_items == 0 and job.done_items == job.total_items == 6

    run = job.runs.get()
    judge_failed = 0
    for item in run.items.all():
        assert item.state == ItemResult.State.DONE
        A, S, P = EXPECTED[item.item_key]
        assert item.scores["A"] == A, item.item_key  # the answer level is never lost
        if item.scores["judge_failed"]:
            judge_failed += 1
            assert item.details["judge_failed"] and item.details["judge_failures"]
            if item.scores["S"] is None:  # the step judge failed: P = A
                assert item.scores["P"] == A and item.score == A
            else:  # only an answer-equivalence question failed: its rule verdict stands
                assert item.scores["P"] == max(A, item.scores["S"])
        else:
            assert (item.scores["S"], item.scores["P"]) == (S, P), item.item_key
    assert judge_failed >= 1
    assert run.metrics["n_failed"] == 0 and run.metrics["n_judge_failed"] == judge_failed
    assert served["judge"] > JUDGE_CALLS_BEFORE_OUTAGE
    total = sum(i.score for i in run.items.all())
    assert run.metrics["score"] == pytest.approx(total)
