"""Pages render the stored aggregates: numbers, uncertainty, ranks, links to the run spec."""

import re

import pytest
from django.urls import reverse

from leaderboard.models import LeaderboardEntry
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def _model_order(html: str) -> list[str]:
    body = html.split('data-table="overview"', 1)[1]
    return re.findall(r'href="/models/([a-z0-9-]+)/"', body)


def test_overview_shows_each_family_headline_with_se_and_rank_interval(client, site):
    html = client.get(reverse("leaderboard:home")).content.decode()
    # alpha hipho: mean of 25/30 and 12.5/30 -> 62.5 %, SE sqrt((100/30)^2*2)/2
    assert "62.5 ± 2.4" in html
    assert "rank 1 · 2/2 common" in html
    assert _model_order(html)[:3] == ["alpha", "beta", "gamma"]


def test_overview_sorts_by_any_column_both_ways(client, site):
    url = reverse("leaderboard:home")
    assert _model_order(client.get(url, {"sort": "hipho", "dir": "asc"}).content.decode())[:3] == [
        "gamma",
        "beta",
        "alpha",
    ]
    assert _model_order(client.get(url, {"sort": "size", "dir": "desc"}).content.decode())[:3] == [
        "gamma",
        "beta",
        "alpha",
    ]
    assert _model_order(client.get(url, {"sort": "name", "dir": "asc"}).content.decode())[:3] == [
        "alpha",
        "beta",
        "gamma",
    ]
    assert _model_order(client.get(url, {"sort": "bogus"}).content.decode())[:3] == [
        "alpha",
        "beta",
        "gamma",
    ]


def test_overview_filters_by_organisation_weights_size_and_modality(client, site):
    url = reverse("leaderboard:home")
    assert set(_model_order(client.get(url, {"org": "Acme"}).content.decode())) == {
        "alpha",
        "gamma",
    }
    assert set(_model_order(client.get(url, {"open": "no"}).content.decode())) == {"beta"}
    assert set(
        _model_order(client.get(url, {"size_min": "50", "size_max": "100"}).content.decode())
    ) == {"beta"}
    assert set(_model_order(client.get(url, {"modality": "vision"}).content.decode())) == {"beta"}
    assert set(_model_order(client.get(url, {"size_min": "not-a-number"}).content.decode())) == {
        "alpha",
        "beta",
        "gamma",
    }


def test_overview_paginates(client):
    for i in range(55):
        f.model(f"m{i:02d}")
    first = client.get(
        reverse("leaderboard:home"), {"sort": "name", "dir": "asc", "all": "1"}
    ).content.decode()
    second = client.get(
        reverse("leaderboard:home"), {"sort": "name", "dir": "asc", "page": 2, "all": "1"}
    ).content.decode()
    assert len(_model_order(first)) == 50 and len(_model_order(second)) == 5
    assert "page 1 of 2" in first


def test_medal_table_has_badges_counts_cutoffs_and_probabilities(client, site):
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    assert '<span class="badge gold">gold</span>' in html
    assert "Gold cut-off" in html and "Top human" in html and "28.5" in html
    assert "P(gold) 0.60" in html  # bootstrap medal probability in the cell title
    run = site["runs"]["alpha-ipho"]
    assert f'href="/runs/{run.pk}/"' in html
    assert 'data-chart="hipho-medals-chart-data"' in html


def test_exam_page_shows_answer_and_step_points_and_winning_scheme(client, site):
    html = client.get(reverse("leaderboard:hipho_exam", args=["ipho-2025"])).content.decode()
    assert "A 6.00 · S 8.00 · scheme 1" in html
    assert "A 5.00 · S — " not in html and "A 5.00 · S —" in html
    assert client.get(reverse("leaderboard:hipho_exam", args=["nope"])).status_code == 404


def test_hanabi_page_has_self_play_cells_cross_play_and_heatmap(client, site):
    html = client.get(reverse("leaderboard:hanabi")).content.decode()
    assert "12.50 ± 0.50" in html and "perfect 10% · bomb 20%" in html
    # the heatmap is the agent x partner matrix: alpha's row, beta's column
    assert '"x":["alpha","beta"' in html.replace(" ", "") and "n=10" in html
    assert 'data-chart="hanabi-cross-heatmap-data"' in html and 'data-table="hanabi-matrix"' in html


def test_chess_page_shows_metrics_elo_interval_and_bands_and_filters_by_task(client, site):
    html = client.get(reverse("leaderboard:chess")).content.decode()
    assert "71.5" in html and "48.0" in html and "90.0%" in html and "5.0%" in html
    assert "[1,350, 1,650]" in html  # alpha Elo 1500 with its 95% interval
    # one row per model, the tasks as columns
    models = html.split('data-table="chess-models"')[1].split("</table>")[0]
    assert (
        models.count('href="/models/alpha/"') == 1 and "Best move" in models and "Puzzles" in models
    )
    assert "80% (4/5)" in html
    only_puzzles = client.get(reverse("leaderboard:chess"), {"task": "puzzles"}).content.decode()
    table = only_puzzles.split('data-table="chess-tasks"')[1].split("</table>")[0]
    assert "best_move" not in table and "puzzles" in table


def test_model_page_shows_tokens_cost_and_cost_per_point(client, site):
    LeaderboardEntry.objects.filter(model__slug="alpha", benchmark__slug="hipho/ipho-2025").update(
        cost_usd=2.5, input_tokens=1000, output_tokens=500
    )
    html = client.get(reverse("leaderboard:model", args=["alpha"])).content.decode()
    assert "1,000 / 500" in html and "$2.5000" in html
    assert "$0.0300" in html  # 2.5 USD / 83.3 % of max
    assert client.get(reverse("leaderboard:model", args=["nobody"])).status_code == 404


def test_run_page_shows_the_spec_and_links_items(client, site):
    run = site["runs"]["alpha-ipho"]
    html = client.get(reverse("leaderboard:run", args=[run.pk])).content.decode()
    assert "prompt_hash" in html and "abc123" in html and "code_version" in html
    assert f"/items/{site['items']['hipho'].pk}/" in html
    assert client.get(reverse("leaderboard:run", args=[99999])).status_code == 404


def test_benchmark_pages(client, site):
    assert "hipho/ipho-2025" in client.get(reverse("leaderboard:benchmarks")).content.decode()
    html = client.get(
        reverse("leaderboard:benchmark", args=[site["benchmarks"][0].pk])
    ).content.decode()
    assert "Alpha" in html and "[23.00, 27.00]" in html and "<td><span>1</span></td>" in html


def test_plotly_is_served_locally(client):
    # the old address redirects to the static file found in the installed plotly package
    moved = client.get(reverse("leaderboard:plotly_js"))
    assert moved.status_code == 301 and moved["Location"] == "/static/vendor/plotly/plotly.min.js"
    response = client.get(moved["Location"])
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    head = b"".join(response.streaming_content)[:2000]
    assert b"plotly" in head.lower()


def test_chess_page_names_the_opponents_of_each_model(client):
    m, b = f.model("solo"), f.benchmark("chess/games", "chess")
    metrics = {
        **f.chess_metrics(1400.0, 90.0, task="games"),
        "by_opponent": {
            "stockfish-elo-1350": {"games": 2, "points": 1.5, "elo": 1350},
            "random": {"games": 2, "points": 2.0, "elo": 400, "wins": 2, "draws": 0, "losses": 0},
        },
    }
    f.run(m, b, metrics)
    html = client.get(reverse("leaderboard:chess")).content.decode()
    row = html.split('data-table="chess-models"')[1].split("</table>")[0]
    assert "3 / 2 / 5" in row
    opponents = html.split('data-table="chess-opponents"')[1].split("</table>")[0]
    assert "random" in opponents and "400 given" in opponents
    # a run stored before W/D/L were kept per opponent shows its points for that opponent
    assert "stockfish-elo-1350" in opponents and "1,350 given" in opponents
    rows = client.get(
        reverse("leaderboard:chess"), {"download": "chess-models", "format": "json"}
    ).json()["rows"]
    assert (rows[0]["wdl_w"], rows[0]["wdl_d"], rows[0]["wdl_l"]) == (3, 2, 5)
    per_opponent = client.get(
        reverse("leaderboard:chess"), {"download": "chess-opponents", "format": "json"}
    ).json()["rows"]
    assert [
        (r["opponent"], r["wins"], r["draws"], r["losses"], r["points"], r["games"])
        for r in per_opponent
    ] == [("random", 2, 0, 0, 2.0, 2), ("stockfish-elo-1350", None, None, None, 1.5, 2)]


def test_the_grader_sanity_check_alone_draws_no_medal_chart_and_ranks_nothing(client):
    ref = f.model("reference", litellm_model="builtin/reference")
    sanity = {**f.hipho_metrics(30.0), "sanity_check": True}
    f.run(ref, f.benchmark("hipho/ipho-2025", "hipho"), sanity)
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    assert "hipho-medals-chart" not in html  # no medallist: no empty chart
    home = client.get(reverse("leaderboard:home")).content.decode()
    sets = home.split('id="common-sets"')[1].split("</ul>")[0]
    assert "nothing ranked yet" in sets and "0 models ranked" not in sets
    alpha = f.model("alpha")
    f.run(
        alpha, f.benchmark("hipho/eupho-2025", "hipho"), f.hipho_metrics(25.0, exam_id="eupho-2025")
    )
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    chart = html.split('id="hipho-medals-chart-data"')[1].split("</script>")[0]
    assert "Alpha" in chart and "Reference" not in chart  # the medallist, not the sanity check


def test_the_exam_page_gives_the_sanity_check_no_medal(client):
    ref = f.model("reference", litellm_model="builtin/reference")
    sanity = {**f.hipho_metrics(30.0, probs={"gold": 1.0}), "sanity_check": True}
    f.run(ref, f.benchmark("hipho/ipho-2025", "hipho"), sanity)
    html = client.get(reverse("leaderboard:hipho_exam", args=["ipho-2025"])).content.decode()
    row = html.split('data-table="hipho-exam-summary"')[1].split("</table>")[0]
    assert "grader sanity check" in row and "not a medallist" in row
    assert "badge gold" not in row
    rows = client.get(
        reverse("leaderboard:hipho_exam", args=["ipho-2025"]),
        {"download": "hipho-exam-summary", "format": "json"},
    ).json()["rows"]
    assert rows[0]["medal"] is None and rows[0]["p_gold"] is None
