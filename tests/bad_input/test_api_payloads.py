"""Bad job submissions to the JSON API: each gets a 4xx whose message names what is wrong, and
no job, run or item row is written."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from api.services import api_token_create, api_token_revoke
from catalog.models import ModelEntry
from jobs.models import ItemResult, Job, Run
from tests.fixtures.users import job_operator

pytestmark = pytest.mark.django_db


@pytest.fixture
def tokens(db):
    owner = job_operator("owner")
    other = get_user_model().objects.create_user("other", is_staff=False)
    revoked, revoked_raw = api_token_create(user=owner, name="old")
    api_token_revoke(token=revoked)
    return {
        "staff": api_token_create(user=owner, name="ci")[1],
        "other user": api_token_create(user=other, name="theirs")[1],
        "revoked": revoked_raw,
    }


@pytest.fixture
def reference(db) -> ModelEntry:
    return ModelEntry.objects.create(
        slug="builtin-reference", display_name="Reference", litellm_model="builtin/reference"
    )


def _good(bench) -> dict:
    return {"models": ["builtin-reference"], "benchmarks": [bench.slug], "samples": 1}


def _counts():
    return Job.objects.count(), Run.objects.count(), ItemResult.objects.count()


# case: (body maker, token name or None, content type, status, words in the message)
CASES = {
    "samples as a string": (
        lambda b: {**_good(b), "samples": "3"},
        "staff",
        None,
        422,
        ["samples"],
    ),
    "samples zero": (lambda b: {**_good(b), "samples": 0}, "staff", None, 422, ["samples"]),
    "samples boolean": (lambda b: {**_good(b), "samples": True}, "staff", None, 422, ["samples"]),
    "models as a string": (
        lambda b: {**_good(b), "models": "builtin-reference"},
        "staff",
        None,
        422,
        ["models"],
    ),
    "benchmarks of numbers": (
        lambda b: {**_good(b), "benchmarks": [1, 2]},
        "staff",
        None,
        422,
        ["benchmarks"],
    ),
    "unknown field": (lambda b: {**_good(b), "priority": "high"}, "staff", None, 422, ["priority"]),
    "name too long": (lambda b: {**_good(b), "name": "x" * 5000}, "staff", None, 422, ["name"]),
    "unknown benchmark": (
        lambda b: {**_good(b), "benchmarks": ["hipho/no-such-olympiad"]},
        "staff",
        None,
        422,
        ["hipho/no-such-olympiad"],
    ),
    "unknown model": (lambda b: {**_good(b), "models": ["gpt-17"]}, "staff", None, 422, ["gpt-17"]),
    "body not an object": (lambda b: [1, 2, 3], "staff", None, 400, ["object"]),
    "invalid JSON": (lambda b: b'{"models": [', "staff", None, 400, ["JSON"]),
    "invalid UTF-8": (lambda b: b'{"name": "\xff\xfe"}', "staff", None, 400, ["JSON"]),
    "not JSON at all": (
        lambda b: b"models=a&benchmarks=b",
        "staff",
        "application/x-www-form-urlencoded",
        400,
        ["Content-Type"],
    ),
    "huge body": (
        lambda b: {**_good(b), "name": "x" * (2 * 1024 * 1024)},
        "staff",
        None,
        413,
        ["bytes"],
    ),
    "missing token": (_good, None, None, 401, ["token"]),
    "another user's token": (_good, "other user", None, 403, ["staff"]),
    "revoked token": (_good, "revoked", None, 401, ["revoked"]),
    "garbage token": (_good, "garbage", None, 401, ["token"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_submission_is_refused_and_writes_nothing(case, tokens, reference, hipho_exam):
    make, token, content_type, status, words = CASES[case]
    body = make(hipho_exam)
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {}
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {tokens.get(token, 'pdm_' + 'x' * 40)}"
    before = _counts()
    response = Client().post(
        "/api/jobs", raw, content_type=content_type or "application/json", **headers
    )
    assert response.status_code == status, (case, response.status_code, response.content[:300])
    message = response.json()["error"]["message"]
    for word in words:
        assert word in message, f"{case}: {word!r} not in {message!r}"
    assert _counts() == before


def test_the_good_submission_of_the_corpus_is_accepted(tokens, reference, hipho_exam):
    response = Client().post(
        "/api/jobs",
        json.dumps(_good(hipho_exam)),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {tokens['staff']}",
    )
    assert response.status_code == 201 and Job.objects.count() == 1
