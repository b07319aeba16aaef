"""The chess page and the model page show the measured ladder, the pairings' W/D/L, censored
Elo as a bound, faithfulness next to the hallucination rate, and say what the classes are."""

from __future__ import annotations

import pytest
from django.urls import reverse

from evaluators.chess.config import resolve_path
from evaluators.chess.rating import DEFAULT_LADDER, load_ladder
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def _table(html: str, name: str) -> str:
    return html.split(f'data-table="{name}"')[1].split("</table>")[0]


def test_the_chess_page_shows_the_measured_ladder_and_its_round_robin(client):
    ladder, fit = load_ladder(resolve_path(DEFAULT_LADDER))
    html = client.get(reverse("leaderboard:chess")).content.decode()
    rungs = _table(html, "chess-ladder")
    for name in ladder.players:
        assert name in rungs
    rated = next(iter(fit.ratings))
    assert f"{fit.ratings[rated]:,.0f}" in rungs
    games = _table(html, "chess-ladder-games")
    p = ladder.pairs[0]
    assert f"{p.wins} / {p.draws} / {p.losses}" in games
    assert "settings games use" in html and ladder.engine in html


def test_a_clean_sweep_is_shown_as_a_bound_with_the_opponents_named(client):
    m, b = f.model("loser"), f.benchmark("chess/games-ladder", "chess")
    metrics = {
        **f.chess_metrics(1180.0, task="games"),
        "score_se": None,
        "elo": 1180.0,
        "elo_ci95": [None, 1320.0],
        "elo_censored": "below",
        "wins": 0,
        "draws": 0,
        "losses": 6,
        "pairings": [
            {
                "opponent": "stockfish-elo-1350",
                "wins": 0,
                "draws": 0,
                "losses": 6,
                "rating": 1410.0,
                "rating_se": 30.0,
            }
        ],
    }
    f.run(m, b, metrics)
    row = _table(client.get(reverse("leaderboard:chess")).content.decode(), "chess-models")
    assert "&lt; 1,320" in row and "every rated game lost" in row
    opponents = _table(client.get(reverse("leaderboard:chess")).content.decode(), "chess-opponents")
    assert "stockfish-elo-1350" in opponents and "1,410 ± 59" in opponents
    [r] = client.get(
        reverse("leaderboard:chess"), {"download": "chess-opponents", "format": "json"}
    ).json()["rows"]
    assert (r["opponent"], r["rating"], r["wins"], r["draws"], r["losses"], r["points"]) == (
        "stockfish-elo-1350",
        1410.0,
        0,
        0,
        6,
        0.0,
    )


def test_faithfulness_sits_next_to_the_hallucination_rate_with_intervals(client):
    m, b = f.model("talker"), f.benchmark("chess/best-move", "chess")
    metrics = {
        **f.chess_metrics(40.0),
        "hallucination_ci95": [0.02, 0.11],
        "faithfulness_n": 20,
        "unfaithful": 5,
        "unfaithful_rate": 0.25,
        "unfaithful_ci95": [0.11, 0.47],
        "no_move": 2,
        "no_move_rate": 0.1,
        "no_move_ci95": [0.03, 0.3],
        "never_legal": 1,
        "accuracy_never_legal_as_zero": 68.0,
    }
    f.run(m, b, metrics)
    html = client.get(reverse("leaderboard:chess")).content.decode()
    row = _table(html, "chess-tasks")
    assert (
        "25.0%" in row
        and "[11.0%, 47.0%]" in row
        and "[3.0%, 30.0%]" in row
        and "[2.0%, 11.0%]" in row
    )
    assert "Podium&#x27;s own" in html or "Podium's own" in html
    model_html = client.get(reverse("leaderboard:model", args=["talker"])).content.decode()
    table = _table(model_html, "model-chess-reasoning")
    assert "25.0%" in table and "10.0%" in table and "5.0%" in table


def test_an_elo_known_only_as_a_bound_is_a_bound_on_the_job_and_model_pages(client):
    m, b = f.model("sweeper"), f.benchmark("chess/games-ladder", "chess")
    metrics = {
        **f.chess_metrics(1708.9, task="games"),
        "score_se": None,
        "elo_ci95": [1478.7, None],
        "elo_censored": "above",
    }
    run = f.run(m, b, metrics)
    job = client.get(reverse("leaderboard:job", args=[run.job_id])).content.decode()
    model = client.get(reverse("leaderboard:model", args=["sweeper"])).content.decode()
    for html in (job, model):
        assert "&gt; 1,479" in html and "1,708.90" not in html
    live = client.get(reverse("leaderboard:job_progress", args=[run.job_id]), {"runs": 1}).json()
    assert [r["score_text"] for r in live["runs"]] == ["> 1,479"]
