"""Leaderboard pages read the read model (LeaderboardEntry, FamilyScore, models, benchmarks),
never item rows: checked on every query each page runs, for the overview, the model and
benchmark lists, a model's page and every registered family's page (the test-only Nim family included)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evaluators.registry import FAMILIES
from tests.leaderboard import factories

pytestmark = pytest.mark.django_db

ITEM_TABLE = "jobs_itemresult"


@pytest.fixture
def site(db):
    data = factories.populated_site()
    nim = factories.benchmark("nim/page-test", "nim", config={})
    factories.run(
        data["models"][0],
        nim,
        {
            "score": 50.0,
            "score_se": 10.0,
            "n_items": 4,
            "n_failed": 0,
            "games": 4,
            "wins": 2,
            "illegal": 0,
            "opponent": "optimal",
        },
    )
    return data


def _pages(site) -> list[str]:
    pages = [
        reverse("leaderboard:home"),
        reverse("leaderboard:home") + "?all=1&sort=name",
        reverse("leaderboard:benchmarks"),
        reverse("leaderboard:model", args=[site["models"][0].slug]),
    ]
    pages += [reverse(f"leaderboard:{spec.page}") for spec in FAMILIES.values() if spec.page]
    return pages


def test_leaderboard_pages_never_read_item_rows(client, site):
    for url in _pages(site):
        # ?uncached=1 is not a cacheable parameter: the page is rendered, not served from the cache
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url + ("&" if "?" in url else "?") + "uncached=1")
        assert response.status_code == 200, url
        assert queries.captured_queries, url
        readers = [q["sql"] for q in queries.captured_queries if ITEM_TABLE in q["sql"]]
        assert not readers, f"{url} read item rows: {readers[0][:300]}"
