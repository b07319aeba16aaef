"""Every table on every page downloads as CSV and JSON with all of its rows."""

import csv
import io
import re

import pytest
from django.urls import reverse

from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def _pages(site) -> list[str]:
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
        reverse("leaderboard:item", args=[site["items"]["hipho"].pk]),
        reverse("leaderboard:queue"),
        reverse("leaderboard:job", args=[site["job"].pk]),
    ]


def test_every_table_downloads_in_both_formats(client, site):
    checked = 0
    for url in _pages(site):
        html = client.get(url).content.decode()
        names = re.findall(r'data-table="([^"]+)"', html)
        assert names, url
        for name in names:
            body = html.split(f'data-table="{name}"')[1].split("<tbody>")[1].split("</tbody>")[0]
            rows_on_page = body.count("<tr") - body.count('class="empty"')
            as_json = client.get(url, {"download": name, "format": "json"})
            # file named after the table and the id of what it shows (benchmark-3-results.json)
            assert as_json.status_code == 200 and as_json["Content-Disposition"].endswith('.json"')
            assert as_json.json()["table"] == name
            records = as_json.json()["rows"]
            as_csv = client.get(url, {"download": name, "format": "csv"})
            lines = list(csv.reader(io.StringIO(as_csv.content.decode())))
            assert len(lines) == len(records) + 1, (url, name)
            assert len(records) >= rows_on_page, (url, name)
            checked += 1
    assert checked >= 15


def test_downloads_carry_every_row_not_just_the_page(client):
    for i in range(60):
        f.model(f"m{i:02d}")
    # models that never ran are hidden by default; ?all=1 lists them
    response = client.get(
        reverse("leaderboard:home"), {"download": "overview", "format": "json", "all": "1"}
    )
    assert len(response.json()["rows"]) == 60


def test_downloads_keep_the_filters(client, site):
    response = client.get(
        reverse("leaderboard:home"), {"org": "Acme", "download": "overview", "format": "json"}
    )
    assert sorted(r["slug"] for r in response.json()["rows"]) == ["alpha", "gamma"]
    html = client.get(reverse("leaderboard:home"), {"org": "Acme"}).content.decode()
    assert "?org=Acme&amp;download=overview&amp;format=csv" in html


def test_intervals_split_into_columns_and_files_are_named_after_table_and_id(client, site):
    bench = site["benchmarks"][0]
    response = client.get(
        reverse("leaderboard:benchmark", args=[bench.pk]), {"download": "benchmark-results"}
    )
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="benchmark-{bench.pk}-results.csv"'
    )
    header, first = response.content.decode().splitlines()[:2]
    assert "95% interval (low),95% interval (high)" in header and "[" not in first
    rows = client.get(
        reverse("leaderboard:benchmark", args=[bench.pk]),
        {"download": "benchmark-results", "format": "json"},
    ).json()["rows"]
    assert rows[0]["interval_low"] < rows[0]["score"] < rows[0]["interval_high"]


def test_item_downloads_carry_the_item_ids(client, site):
    item = site["items"]["hipho"]
    rows = client.get(
        reverse("leaderboard:run", args=[item.run_id]), {"download": "run-items", "format": "json"}
    ).json()["rows"]
    assert item.pk in {r["item_id"] for r in rows}
