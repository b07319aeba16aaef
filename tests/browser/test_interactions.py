"""Sorting and filtering change the rows; the replay viewer steps forward and back."""

import pytest
from django.urls import reverse

from tests.leaderboard.factories import populated_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _models(page) -> list[str]:
    return page.locator('table[data-table="overview"] tbody tr td:first-child').all_inner_texts()


def test_sorting_by_a_column_header_reorders_and_reverses(live_server, page):
    populated_site()
    page.goto(live_server.url + reverse("leaderboard:home"))
    assert _models(page) == ["Alpha", "Beta", "Gamma"]  # default: HiPhO, best first
    page.click('th a[data-sort="size"]')
    page.wait_for_url("**sort=size**")
    assert _models(page) == ["Gamma", "Beta", "Alpha"]
    page.click('th a[data-sort="size"]')  # again: the other direction
    page.wait_for_url("**dir=asc**")
    assert _models(page) == ["Alpha", "Beta", "Gamma"]
    assert page.console.errors == []


def test_filters_narrow_the_rows(live_server, page):
    populated_site()
    page.goto(live_server.url + reverse("leaderboard:home"))
    page.select_option('select[name="org"]', "Acme")
    page.click('#filters button[type="submit"]')
    page.wait_for_url("**org=Acme**")
    assert _models(page) == ["Alpha", "Gamma"]
    page.select_option('select[name="open"]', "no")
    page.click('#filters button[type="submit"]')
    page.wait_for_url("**open=no**")
    assert page.locator('table[data-table="overview"] td.empty').count() == 1
    page.goto(live_server.url + reverse("leaderboard:home") + "?modality=vision")
    assert _models(page) == ["Beta"]


def test_replay_steps_forward_and_back(live_server, page):
    site = populated_site()
    page.goto(live_server.url + reverse("leaderboard:replay", args=[site["items"]["hanabi"].pk]))
    root = page.locator("#replay")
    assert root.get_attribute("data-index") == "0"
    status0 = page.inner_text("#replay-status")
    assert "hints 8" in status0 and "lives 3" in status0
    assert page.locator("#replay-hands .hand").count() == 2
    page.click("#replay-next")
    assert root.get_attribute("data-index") == "1"
    assert page.inner_text("#replay-position").startswith("turn 1")
    page.click("#replay-next")
    page.click("#replay-next")  # frame 3 is the fallback turn
    assert root.get_attribute("data-index") == "3"
    assert "fallback move" in page.inner_text("#replay-move")
    assert page.locator("#replay-move.fallback").count() == 1
    page.click("#replay-prev")
    assert root.get_attribute("data-index") == "2"
    page.click('button[data-step="last"]')
    assert "end of game" in page.inner_text("#replay-move")
    page.keyboard.press("ArrowLeft")
    assert root.get_attribute("data-index") == "5"
    page.click('button[data-step="first"]')
    assert root.get_attribute("data-index") == "0"
    assert page.console.errors == []


def test_downloads_are_offered_for_every_table(live_server, page):
    populated_site()
    page.goto(live_server.url + reverse("leaderboard:chess"))
    tables = page.locator("table.data").count()
    assert tables >= 3  # models, task details, puzzle bands (and the measured Elo ladder's tables)
    assert page.locator('a[data-download="csv"]').count() == tables
    with page.expect_download() as info:
        page.locator('a[data-download="csv"]').first.click()
    assert info.value.suggested_filename == "chess-models.csv"
