"""Downloads: CSV cells that a spreadsheet would run as formulas are defused."""

import csv
import io

import pytest
from django.urls import reverse

from leaderboard.tables import csv_safe
from tests.leaderboard import factories as f


@pytest.mark.parametrize(
    "text", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", '=HYPERLINK("http://x")']
)
def test_formula_starts_get_a_quote(text):
    assert csv_safe(text) == "'" + text


@pytest.mark.parametrize("value", ["plain", "a=b", "", 3, -2.5, None])
def test_other_values_pass_unchanged(value):
    assert csv_safe(value) == value


@pytest.mark.django_db
def test_the_overview_csv_defuses_a_hostile_model_name(client):
    m = f.model("evil", display_name='=HYPERLINK("http://evil.example","x")', organisation="@org")
    f.run(m, f.benchmark("hanabi/a", "hanabi"), f.hanabi_metrics(-3.0 + 15))
    response = client.get(reverse("leaderboard:home"), {"download": "overview", "format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header, row = rows[0], rows[1]
    assert row[header.index("Model")] == "'" + m.display_name
    assert row[header.index("Organisation")] == "'@org"
    assert float(row[header.index("Hanabi")]) == pytest.approx(48.0)  # numbers stay numbers


@pytest.mark.django_db
def test_every_table_of_a_page_downloads_as_json(client, site):
    response = client.get(
        reverse("leaderboard:hipho"), {"download": "hipho-medals", "format": "json"}
    )
    data = response.json()
    assert data["table"] == "hipho-medals"
    alpha = next(r for r in data["rows"] if r["model"] == "Alpha")
    assert alpha["ipho-2025"] == 25.0 and alpha["ipho-2025__medal"] == "gold" and alpha["gold"] == 1
    assert client.get(reverse("leaderboard:hipho"), {"download": "nope"}).status_code == 404
    assert (
        client.get(
            reverse("leaderboard:hipho"), {"download": "hipho-medals", "format": "xml"}
        ).status_code
        == 400
    )
