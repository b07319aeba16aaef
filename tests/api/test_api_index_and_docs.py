"""/api/ is an entry point: a JSON index for programs, a documentation page (built offline from
the OpenAPI document) for browsers and at /api/docs."""

import pytest

from api.openapi import schema

pytestmark = pytest.mark.django_db


def test_it_serves_a_json_index_of_every_endpoint(client):
    response = client.get("/api/", HTTP_ACCEPT="application/json")
    data = response.json()
    assert response.status_code == 200 and "Accept" in response["Vary"]
    assert data["openapi"].endswith("/api/openapi.json") and data["docs"].endswith("/api/docs")
    listed = {(e["method"], e["path"]) for e in data["endpoints"]}
    assert ("GET", "/api/leaderboard") in listed and ("POST", "/api/jobs") in listed
    assert len(listed) == sum(
        1 for item in schema()["paths"].values() for m in item if m in ("get", "post")
    )


def test_it_documents_every_path_on_a_page_with_no_outside_resource(client):
    html = client.get("/api/docs").content.decode()
    for path in schema()["paths"]:
        assert f"<code>{path}</code>" in html
    assert 'id="schema-JobSubmit"' in html and "Authorization: Bearer" in html
    assert "https://" not in html.split("<main>", 1)[1].split("</main>", 1)[0].replace(
        "https://docs", ""
    )
    browser = client.get("/api/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert (
        browser["Content-Type"].startswith("text/html")
        and 'id="api-docs"' in browser.content.decode()
    )
