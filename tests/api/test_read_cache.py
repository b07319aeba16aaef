"""Read-model endpoints answer from the page cache, and a refreshed run shows at once."""

import pytest

from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_it_caches_model_results_until_the_read_model_changes(client):
    m = f.model("alpha")
    f.run(m, f.benchmark("hipho/ipho-2025", "hipho"), f.hipho_metrics(20.0))
    first = client.get("/api/models/alpha")
    again = client.get("/api/models/alpha")
    assert first.status_code == again.status_code == 200 and again["X-Podium-Cache"] == "hit"
    assert again.json() == first.json() and again["Content-Type"] == "application/json"
    f.run(m, f.benchmark("hanabi/2p", "hanabi"), f.hanabi_metrics(12.0))
    fresh = client.get("/api/models/alpha")
    assert "X-Podium-Cache" not in fresh and len(fresh.json()["results"]) == 2
    assert client.get("/api/models/nobody").status_code == 404  # errors are answered, never cached
    assert (
        client.get("/api/models/alpha", HTTP_AUTHORIZATION="Bearer not-a-token").status_code == 401
    )
