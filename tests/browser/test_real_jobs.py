"""Pages against real data: the built-in baselines of all three families are evaluated by a real
Celery worker (real OpenSpiel games, real Stockfish, the real HiPhO grader), then every page
is opened in Chromium."""

import shutil

import pytest
from django.urls import reverse

from jobs.models import ItemResult, Job
from tests.fixtures.services import wait_for
from tests.requirements import require

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_baselines(celery_worker, settings):
    from catalog.models import Benchmark, ModelEntry
    from catalog.services import benchmarks_ensure, builtin_models_ensure
    from jobs.services import job_submit

    require(
        bool(shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")), "Stockfish"
    )
    builtin_models_ensure()
    benchmarks_ensure()
    celery_worker(concurrency=2)
    plan = [
        (["builtin-reference"], ["hipho/podiumdemo-2025"], 1),
        (["builtin-iggi", "builtin-piers"], ["hanabi/bots-2p"], 2),
        (["builtin-random", "builtin-stockfish-elo-1350"], ["chess/best-move-demo"], 1),
    ]
    jobs = []
    for models, benches, samples in plan:
        jobs.append(
            job_submit(
                models=list(ModelEntry.objects.filter(slug__in=models)),
                benchmarks=list(Benchmark.objects.filter(slug__in=benches)),
                samples=samples,
            )
        )
    wait_for(
        lambda: all(Job.objects.get(pk=j.pk).status == Job.Status.DONE for j in jobs),
        timeout=420,
        interval=1.0,
        what="the baseline jobs",
    )
    return jobs


def test_pages_show_real_results(live_server, page, finished_baselines):
    hanabi_item = ItemResult.objects.filter(run__benchmark__family="hanabi", state="done").first()
    chess_item = ItemResult.objects.filter(
        run__benchmark__family="chess", state="done", run__model__slug="builtin-random"
    ).first()
    hipho_item = ItemResult.objects.filter(run__benchmark__family="hipho", state="done").first()
    assert hanabi_item and chess_item and hipho_item

    for url in [
        reverse("leaderboard:home"),
        reverse("leaderboard:hipho"),
        reverse("leaderboard:hanabi"),
        reverse("leaderboard:chess"),
        reverse("leaderboard:queue"),
        reverse("leaderboard:job", args=[finished_baselines[0].pk]),
        reverse("leaderboard:run", args=[hanabi_item.run_id]),
        reverse("leaderboard:item", args=[hipho_item.pk]),
        reverse("leaderboard:model", args=["builtin-iggi"]),
    ]:
        assert page.goto(live_server.url + url).status == 200, url
        page.wait_for_load_state("networkidle")
        assert page.console.errors == [], (url, page.console.errors)

    page.goto(live_server.url + reverse("leaderboard:home"))
    text = page.inner_text('table[data-table="overview"]')
    for name in ("Reference answers", "IGGI", "Random legal move"):
        assert name in text

    page.goto(live_server.url + reverse("leaderboard:hanabi"))
    page.wait_for_selector('#hanabi-self-chart[data-drawn="1"]')
    assert "2p bot" in page.inner_text('table[data-table="hanabi-self"]')

    page.goto(live_server.url + reverse("leaderboard:chess"))
    page.wait_for_selector('#chess-move-classes[data-drawn="1"]')

    exam_link = page.goto(live_server.url + reverse("leaderboard:hipho"))
    assert exam_link.status == 200
    page.click("main p a")  # the first exam page
    assert page.locator('table[data-table="hipho-exam-problems"] tbody tr').count() >= 1

    # a real Hanabi game steps forward and back
    page.goto(live_server.url + reverse("leaderboard:replay", args=[hanabi_item.pk]))
    root = page.locator("#replay")
    page.click("#replay-next")
    page.click("#replay-next")
    assert root.get_attribute("data-index") == "2"
    page.click("#replay-prev")
    assert root.get_attribute("data-index") == "1"
    assert "bot rule: " in page.inner_text("#replay-move")  # bots record the rule that fired

    # a real chess position: the board has 64 squares and the model's move is marked
    page.goto(live_server.url + reverse("leaderboard:position", args=[chess_item.pk]))
    assert page.locator(".board .sq").count() == 64
    assert page.locator(".board .model-to").count() == 1
    assert page.console.errors == []
