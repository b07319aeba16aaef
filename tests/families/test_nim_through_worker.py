"""The test-only family end to end: registered only from tests/, its job runs through the engine
in a real Celery worker process (which registers Nim from PODIUM_EXTRA_FAMILIES), with a built-in
player and a model reached through litellm over HTTP; the results reach the overview, Nim's own
page and viewer, and the API."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from catalog.models import Benchmark, ModelEntry
from jobs import services
from jobs.models import Job
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def first_heap_one(request):
    """Takes one object from the first non-empty heap of the prompt: always legal."""
    text = request["messages"][-1]["content"]
    heaps = [int(h) for h in re.search(r"Heaps: \[([\d, ]+)\]", text).group(1).split(",")]
    k = next(i for i, h in enumerate(heaps) if h) + 1
    return f"I will take 1 from heap {k}."


def test_it_runs_the_test_family_through_a_worker_onto_every_surface(
    celery_worker, catalog, fake_llm, fake_model, client
):
    fake_llm.rule = first_heap_one
    bench = Benchmark.objects.get(slug="nim/vs-random")
    bot = ModelEntry.objects.get(litellm_model="builtin/nim-optimal")
    celery_worker(concurrency=2)
    job = services.job_submit(models=[bot, fake_model], benchmarks=[bench], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=120,
        what="the Nim job",
    )
    job.refresh_from_db()
    assert job.done_items == job.total_items == 8 and job.failed_items == 0
    llm_run = job.runs.get(model=fake_model)
    assert llm_run.metrics["games"] == 4 and llm_run.metrics["illegal"] == 0
    assert fake_llm.counters.requests > 0
    bot_run = job.runs.get(model=bot)
    assert bot_run.score is not None and bot_run.metrics["wins"] >= 0

    overview = client.get(reverse("leaderboard:home")).content.decode()
    assert "Nim" in overview and fake_model.display_name in overview
    page = client.get(reverse("leaderboard:nim")).content.decode()
    assert fake_model.display_name in page and escape(bot.display_name) in page
    item = llm_run.items.first()
    viewer = client.get(reverse("leaderboard:nim_game", args=[item.pk])).content.decode()
    assert "take 1 from heap" in viewer
    assert client.get("/api/leaderboards/nim").json()["count"] == 2
    assert client.get(f"/api/games/{item.pk}").json()["family"] == "nim"
