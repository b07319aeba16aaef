"""A job cancelled while its items and a game are running stops promptly: no item is left
running, nothing more reaches the model endpoint, and finished items keep their results."""

from __future__ import annotations

import time

import pytest

from jobs import services
from jobs.models import ItemResult, Job
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule, hanabi_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_stops_a_cancelled_job_and_spends_nothing_more(
    celery_worker, fake_llm, paid_rule, fake_model, hanabi_game, hipho_exam
):
    def rule(request):
        if "MOVE: <number>" in request["messages"][0]["content"]:
            return Reply(text=hanabi_rule(request), latency=0.2)
        return Reply(text=boxed_rule(request), latency=0.6)

    paid_rule(rule)
    celery_worker(concurrency=3, lease=4)
    job = services.job_submit(models=[fake_model], benchmarks=[hanabi_game, hipho_exam], samples=2)
    wait_for(
        lambda: (
            Job.objects.get(pk=job.pk).done_items >= 1
            and ItemResult.objects.filter(run__job=job, state="running").exists()
        ),
        timeout=90,
        what="items finished and items in progress",
    )
    done_before = dict(
        ItemResult.objects.filter(run__job=job, state="done").values_list("pk", "finished_at")
    )
    services.job_cancel(job=job)
    cancelled_at = time.monotonic()

    # promptly: running items notice within seconds (one cancel query a second at most)
    wait_for(
        lambda: (
            not ItemResult.objects.filter(run__job=job, state__in=["running", "pending"]).exists()
        ),
        timeout=15,
        what="no item running or pending after the cancel",
    )
    stopped_after = time.monotonic() - cancelled_at
    assert stopped_after < 15
    served = fake_llm.counters.requests
    time.sleep(3)
    assert fake_llm.counters.requests == served, "calls kept reaching the endpoint after the cancel"

    job.refresh_from_db()
    assert job.status == Job.Status.CANCELLED
    items = ItemResult.objects.filter(run__job=job)
    assert items.filter(state="cancelled").exists()
    assert set(items.values_list("state", flat=True)) <= {"done", "cancelled"}
    assert dict(items.filter(pk__in=done_before).values_list("pk", "finished_at")) == done_before
    # a game stopped mid-way keeps its checkpoint, so a resume continues it
    games = items.filter(run__benchmark=hanabi_game)
    assert set(games.values_list("state", flat=True)) == {"cancelled"}
    for game in games:
        assert game.checkpoint and game.checkpoint["moves"]
    assert job.done_items == items.filter(state="done").count()
