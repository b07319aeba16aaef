"""Every read endpoint: shape, paging, missing objects, wrong methods, JSON errors."""

import pytest

from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["error"]["code"] == code and body["error"]["message"]
    return body


def test_health(client):
    assert client.get("/api/health").json() == {"status": "ok"}


def test_leaderboard_lists_models_with_family_headlines(client, site):
    data = client.get("/api/leaderboard").json()
    assert data["count"] == 3 and data["pages"] == 1
    alpha = next(m for m in data["results"] if m["slug"] == "alpha")
    hipho = next(f for f in alpha["families"] if f["family"] == "hipho")
    assert hipho["score"] == pytest.approx(62.5) and hipho["n_entries"] == 2
    only = client.get("/api/leaderboard", {"family": "chess"}).json()
    assert {f["family"] for m in only["results"] for f in m["families"]} == {"chess"}
    _error(client.get("/api/leaderboard", {"family": "golf"}), 400, "bad_request")


def test_family_leaderboard_pages_through_entries(client, site):
    data = client.get("/api/leaderboards/hanabi", {"per_page": 2}).json()
    assert data["count"] == 4 and data["pages"] == 2 and len(data["results"]) == 2
    entry = data["results"][0]
    assert {"model", "benchmark", "score", "score_se", "score_ci95", "run", "summary"} <= set(entry)
    cross = client.get("/api/leaderboards/hanabi", {"group": "cross"}).json()
    assert [e["summary"]["partners"] for e in cross["results"]] == [["beta"]]
    _error(client.get("/api/leaderboards/golf"), 404, "not_found")
    _error(client.get("/api/leaderboards/hanabi", {"page": 9}), 404, "not_found")
    _error(client.get("/api/leaderboards/hanabi", {"per_page": 1000}), 400, "bad_request")
    _error(client.get("/api/leaderboards/hanabi", {"page": "x"}), 400, "bad_request")


def test_models_and_model_detail(client, site):
    data = client.get("/api/models").json()
    assert [m["slug"] for m in data["results"]] == ["alpha", "beta", "gamma"]
    assert "api_key_env" not in data["results"][0]
    detail = client.get("/api/models/alpha").json()
    assert len(detail["results"]) == 7 and {f["family"] for f in detail["families"]} == {
        "hipho",
        "hanabi",
        "chess",
    }
    _error(client.get("/api/models/nobody"), 404, "not_found")


def test_benchmarks_and_benchmark_detail(client, site):
    data = client.get("/api/benchmarks", {"family": "chess"}).json()
    assert [b["slug"] for b in data["results"]] == [
        "chess/best-move",
        "chess/games",
        "chess/puzzles",
    ]
    ipho = site["benchmarks"][0]
    detail = client.get(f"/api/benchmarks/{ipho.pk}").json()
    assert detail["slug"] == "hipho/ipho-2025" and [r["model"] for r in detail["results"]] == [
        "alpha",
        "beta",
        "gamma",
    ]
    _error(client.get("/api/benchmarks/9999"), 404, "not_found")


def test_jobs_list_and_detail(client, site):
    data = client.get("/api/jobs").json()
    assert data["results"][0]["name"] == "demo"
    assert client.get("/api/jobs", {"status": "done"}).json()["count"] == 1
    assert client.get("/api/jobs", {"status": "running"}).json()["count"] == 0
    _error(client.get("/api/jobs", {"status": "sleeping"}), 400, "bad_request")
    detail = client.get(f"/api/jobs/{site['job'].pk}").json()
    assert detail["live"]["total"] == 6 and len(detail["runs"]) == 19
    assert (detail["runs_count"], detail["runs_page"], detail["runs_pages"]) == (19, 1, 1)
    # runs come a page at a time
    second = client.get(f"/api/jobs/{site['job'].pk}", {"per_page": 5, "page": 2}).json()
    assert (second["runs_count"], second["runs_page"], second["runs_pages"]) == (19, 2, 4)
    assert [r["id"] for r in second["runs"]] == [r["id"] for r in detail["runs"]][5:10]
    # the job's run list (values() rows) says of each run exactly what /api/runs/<id> says
    for listed in detail["runs"][:3]:
        one = client.get(f"/api/runs/{listed['id']}").json()
        assert listed == {k: v for k, v in one.items() if k not in ("spec", "metrics")}
    _error(client.get(f"/api/jobs/{site['job'].pk}", {"page": 9}), 404, "not_found")
    _error(client.get("/api/jobs/9999"), 404, "not_found")


def test_run_detail_and_items(client, site):
    run = site["runs"]["alpha-ipho"]
    data = client.get(f"/api/runs/{run.pk}").json()
    assert data["spec"]["prompt_hash"] == "abc123" and data["metrics"]["medal"] == "gold"
    items = client.get(f"/api/runs/{run.pk}/items").json()
    assert (
        items["count"] == 1
        and items["results"][0]["key"] == "T1"
        and "transcript" not in items["results"][0]
    )
    assert client.get(f"/api/runs/{run.pk}/items", {"state": "failed"}).json()["count"] == 0
    _error(client.get(f"/api/runs/{run.pk}/items", {"state": "weird"}), 400, "bad_request")
    _error(client.get("/api/runs/9999"), 404, "not_found")
    _error(client.get("/api/runs/9999/items"), 404, "not_found")


def test_item_detail_returns_raw_text_as_data(client, site):
    from tests.leaderboard.factories import XSS

    data = client.get(f"/api/items/{site['items']['hipho'].pk}").json()
    assert data["transcript"][1]["text"] == XSS
    _error(client.get("/api/items/9999"), 404, "not_found")


def test_games_replay_hanabi_and_list_chess_positions(client, site):
    hanabi = client.get(f"/api/games/{site['items']['hanabi'].pk}").json()
    assert hanabi["family"] == "hanabi" and len(hanabi["frames"]) == 7
    chess = client.get(f"/api/games/{site['items']['chess'].pk}").json()
    assert chess["positions"][0]["best_move"] == "d2d4"
    _error(client.get(f"/api/games/{site['items']['hipho'].pk}"), 404, "not_found")
    _error(client.get("/api/games/9999"), 404, "not_found")
    from tests.leaderboard.factories import item

    broken = item(
        site["runs"]["beta-hanabi"],
        "broken",
        details={"seed": 1, "players": 2, "moves": ["Play 9"]},
    )
    _error(client.get(f"/api/games/{broken.pk}"), 422, "not_replayable")


def test_unknown_paths_and_wrong_methods_answer_json(client, site):
    _error(client.get("/api/nothing/here"), 404, "not_found")
    response = _error(client.delete("/api/models"), 405, "method_not_allowed")
    assert response["error"]["message"].startswith("DELETE is not allowed")
    assert client.delete("/api/models")["Allow"] == "GET"
    _error(client.post("/api/models/alpha"), 405, "method_not_allowed")
    _error(client.get(f"/api/jobs/{site['job'].pk}/cancel"), 405, "method_not_allowed")


def test_a_bad_token_on_a_read_is_refused_not_ignored(client, site, revoked_teammate_token):
    _error(client.get("/api/models", **bearer(revoked_teammate_token)), 401, "invalid_token")
    _error(client.get("/api/models", HTTP_AUTHORIZATION="Token abc"), 401, "invalid_token")


def test_openapi_documents_every_route(client):
    from django.urls import get_resolver

    schema = client.get("/api/openapi.json").json()
    assert (
        schema["openapi"].startswith("3.") and "bearer" in schema["components"]["securitySchemes"]
    )
    documented = set(schema["paths"])
    api = get_resolver().url_patterns
    routes = set()
    for pattern in api:
        if str(pattern.pattern) == "api/":
            for sub in pattern.url_patterns:
                text = str(sub.pattern)
                if text.startswith("^"):
                    continue  # the catch-all 404
                routes.add(
                    "/api/"
                    + text.replace("<int:pk>", "{pk}")
                    .replace("<str:family>", "{family}")
                    .replace("<slug:slug>", "{slug}")
                )
    assert routes == documented
    assert "413" in schema["paths"]["/api/jobs"]["post"]["responses"]
    assert "422" in schema["paths"]["/api/jobs"]["post"]["responses"]
