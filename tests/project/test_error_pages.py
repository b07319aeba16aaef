"""The 404 and 500 pages carry the site's own look, not Django's bare defaults."""

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_it_styles_the_404_page(client):
    response = client.get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert 'id="error-404"' in html and "podium.css" in html and "/no/such/page/" in html
    assert 'href="/jobs/"' in html  # the site's navigation is there


def test_it_keeps_the_api_404_json(client):
    response = client.get("/api/no-such-endpoint")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")


def test_it_styles_the_500_page_without_needing_static_files_or_the_database():
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert 'id="error-500"' in html and "<style>" in html and "Podium" in html
    assert "{% static" not in html and "/static/" not in html
