"""A reply with <script> and onerror= payloads shows as text and runs nothing."""

import pytest
from django.urls import reverse

from tests.leaderboard import factories as f
from tests.leaderboard.factories import XSS, populated_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _assert_inert(page):
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator("img[src='x']").count() == 0


def test_payloads_in_replies_show_as_text(live_server, page):
    site = populated_site()
    page.goto(live_server.url + reverse("leaderboard:item", args=[site["items"]["hipho"].pk]))
    assert XSS in page.locator(".transcript pre.text").all_inner_texts()
    _assert_inert(page)

    page.goto(live_server.url + reverse("leaderboard:position", args=[site["items"]["chess"].pk]))
    assert XSS in page.inner_text("main")
    _assert_inert(page)

    page.goto(live_server.url + reverse("leaderboard:replay", args=[site["items"]["hanabi"].pk]))
    assert XSS in page.inner_text("#replay-move")  # the reply is drawn with textContent
    page.click("#replay-next")
    _assert_inert(page)


def test_payloads_in_model_names_show_as_text(live_server, page):
    m = f.model("evil", display_name=XSS)
    f.run(m, f.benchmark("hipho/x", "hipho"), f.hipho_metrics(10.0))
    f.run(
        m, f.benchmark("hanabi/x", "hanabi"), f.hanabi_metrics(10.0, mode="cross", partners=[XSS])
    )
    for url in (
        reverse("leaderboard:home"),
        reverse("leaderboard:hipho"),
        reverse("leaderboard:hanabi"),
        reverse("leaderboard:model", args=["evil"]),
    ):
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        assert XSS in page.inner_text("main"), url
        _assert_inert(page)
    assert page.console.errors == []
