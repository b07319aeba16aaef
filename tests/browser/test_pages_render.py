"""Every page renders in a real browser without console errors; charts draw."""

import pytest
from django.urls import reverse

from tests.leaderboard.factories import populated_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _urls(site) -> list[str]:
    items = site["items"]
    return [
        reverse("leaderboard:home"),
        reverse("leaderboard:hipho"),
        reverse("leaderboard:hipho_exam", args=["ipho-2025"]),
        reverse("leaderboard:hanabi"),
        reverse("leaderboard:chess"),
        reverse("leaderboard:benchmarks"),
        reverse("leaderboard:benchmark", args=[site["benchmarks"][0].pk]),
        reverse("leaderboard:model", args=["alpha"]),
        reverse("leaderboard:run", args=[site["runs"]["alpha-ipho"].pk]),
        reverse("leaderboard:item", args=[items["hipho"].pk]),
        reverse("leaderboard:replay", args=[items["hanabi"].pk]),
        reverse("leaderboard:position", args=[items["chess"].pk]),
        reverse("leaderboard:queue"),
        reverse("leaderboard:job", args=[site["job"].pk]),
    ]


def test_every_page_renders_without_console_errors(live_server, page):
    site = populated_site()
    for url in _urls(site):
        response = page.goto(live_server.url + url)
        assert response.status == 200, url
        page.wait_for_load_state("networkidle")
        assert page.console.errors == [], (url, page.console.errors)
        assert page.locator("header.site nav a").count() >= 6, url


@pytest.mark.parametrize(
    "path, charts",
    [
        ("leaderboard:hipho", ["hipho-medals-chart"]),
        ("leaderboard:hanabi", ["hanabi-self-chart", "hanabi-cross-heatmap"]),
        ("leaderboard:chess", ["chess-move-classes", "chess-elo-chart", "chess-puzzle-chart"]),
    ],
)
def test_charts_draw(live_server, page, path, charts):
    populated_site()
    page.goto(live_server.url + reverse(path))
    for chart_id in charts:
        page.wait_for_selector(f'#{chart_id}[data-drawn="1"]')
        # plotly drew an SVG with at least one trace in it
        assert page.locator(f"#{chart_id} svg.main-svg").count() >= 1
        assert (
            page.locator(
                f"#{chart_id} .trace, #{chart_id} .hm, #{chart_id} .heatmaplayer image"
            ).count()
            >= 1
        )
    assert page.console.errors == []


def test_the_layout_fits_a_phone(live_server, browser):
    populated_site()
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    phone = context.new_page()
    phone.goto(live_server.url + reverse("leaderboard:hipho"))
    # wide tables scroll inside their box instead of widening the page
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 380
    context.close()
