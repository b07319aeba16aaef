"""Requests carrying what no database can store, or no request needs, get a 400 naming the
problem, never a 500: NUL bytes in query parameters and paths, JSON nested 1,500 deep, NUL or
lone surrogates in names, the same model listed twice."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.services import api_token_create
from jobs.models import Job
from tests.fixtures.users import job_operator

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "path",
    [
        "/?q=%00",
        "/?org=%00",
        "/hipho/exams/%00/",
        "/benchmarks/?family=%00",
        "/api/jobs?status=%00",
        "/api/runs?model=%00",
        "/jobs/?x%00=1",
    ],
)
def test_a_nul_byte_in_the_url_is_a_400(catalog, browser, path):
    response = browser.get(path)
    assert response.status_code == 400, (path, response.status_code)
    assert b"NUL" in response.content


@pytest.fixture
def token(db) -> str:
    return api_token_create(user=job_operator("owner"), name="ci")[1]


def _submit(browser: Client, token: str, raw: str):
    return browser.post(
        "/api/jobs", raw, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('{"models": ' + "[" * 1500 + "]" * 1500 + ', "benchmarks": ["hipho/*"]}', "nested"),
        ('{"models": ["a\\u0000b"], "benchmarks": ["hipho/*"]}', "NUL"),
        ('{"models": ["a\\ud800b"], "benchmarks": ["hipho/*"]}', "surrogate"),
        (
            '{"models": ["builtin/reference"], "benchmarks": ["hipho/*"], "name": "x\\udfff"}',
            "surrogate",
        ),
        (
            '{"models": ["builtin/reference", "builtin/reference"], "benchmarks": ["hipho/*"]}',
            "listed twice",
        ),
    ],
)
def test_a_bad_api_body_is_a_400(catalog, browser, token, raw, message, monkeypatch):
    monkeypatch.setattr("jobs.queue.enqueue_dispatch", lambda job_id: None)
    response = _submit(browser, token, raw)
    assert response.status_code == 400, response.content[:300]
    assert message in response.json()["error"]["message"]
    assert not Job.objects.exists()


def test_the_same_model_by_slug_and_by_model_string_is_listed_twice(
    catalog, browser, token, monkeypatch
):
    from catalog.models import ModelEntry

    monkeypatch.setattr("jobs.queue.enqueue_dispatch", lambda job_id: None)
    reference = ModelEntry.objects.get(litellm_model="builtin/reference")
    assert reference.slug != reference.litellm_model
    body = json.dumps(
        {"models": [reference.slug, reference.litellm_model], "benchmarks": ["hipho/*"]}
    )
    response = _submit(browser, token, body)
    assert response.status_code == 400 and "listed twice" in response.json()["error"]["message"]
