"""Write endpoints: staff token required, payloads validated, jobs really submitted / cancelled."""

import json

import pytest

from api.http import MAX_BODY_BYTES
from jobs.models import ItemResult, Job
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db


def _post(client, url, payload=None, token=None, **extra):
    headers = bearer(token) if token else {}
    body = payload if isinstance(payload, (str, bytes)) else json.dumps(payload or {})
    return client.post(
        url,
        data=body,
        content_type=extra.pop("content_type", "application/json"),
        **headers,
        **extra,
    )


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"]["code"] == code, body
    return body


@pytest.fixture
def catalog(db):
    """The real built-in players and default benchmarks of the families."""
    from catalog.services import benchmarks_ensure, builtin_models_ensure

    builtin_models_ensure()
    return benchmarks_ensure()


@pytest.fixture
def no_broker(monkeypatch):
    """Jobs are really created; only the hand-off to Celery is recorded (no worker in these tests)."""
    queued = []
    monkeypatch.setattr("jobs.queue.enqueue_dispatch", queued.append)
    return queued


def test_submit_needs_a_token(client):
    response = _error(
        _post(client, "/api/jobs", {"models": ["x"], "benchmarks": ["y"]}), 401, "unauthenticated"
    )
    assert response["error"]["message"].startswith("this endpoint needs an API token")


def test_submit_refuses_bad_revoked_and_non_staff_tokens(
    client, revoked_teammate_token, outsider_token
):
    payload = {"models": ["x"], "benchmarks": ["y"]}
    r = _post(client, "/api/jobs", payload, revoked_teammate_token)
    _error(r, 401, "invalid_token")
    assert "revoked" in r.json()["error"]["message"] and r["WWW-Authenticate"].startswith("Bearer")
    _error(_post(client, "/api/jobs", payload, "pod_not-a-real-token"), 401, "invalid_token")
    _error(_post(client, "/api/jobs", payload, HTTP_AUTHORIZATION="Bearer"), 401, "invalid_token")
    _error(_post(client, "/api/jobs", payload, outsider_token), 403, "forbidden")
    assert not Job.objects.exists()


@pytest.mark.parametrize(
    "body, status, code",
    [
        ("{not json", 400, "bad_json"),
        ("[1, 2]", 400, "bad_json"),
        ({"models": [], "benchmarks": ["a"]}, 422, "invalid"),
        ({"models": "alpha", "benchmarks": ["a"]}, 422, "invalid"),
        ({"models": ["alpha"]}, 422, "invalid"),
        ({"models": ["alpha"], "benchmarks": ["hanabi/*"], "samples": 0}, 422, "invalid"),
        ({"models": ["alpha"], "benchmarks": ["hanabi/*"], "samples": True}, 422, "invalid"),
        ({"models": ["alpha"], "benchmarks": ["hanabi/*"], "name": 5}, 422, "invalid"),
        ({"models": ["alpha"], "benchmarks": ["hanabi/*"], "colour": "red"}, 422, "invalid"),
        ({"models": ["nobody"], "benchmarks": ["hanabi/*"]}, 422, "invalid"),
        ({"models": ["alpha"], "benchmarks": ["golf/*"]}, 422, "invalid"),
    ],
)
def test_submit_rejects_bad_payloads(client, site, owner_token, body, status, code):
    _error(_post(client, "/api/jobs", body, owner_token), status, code)
    assert Job.objects.count() == 1  # only the site's own job


def test_submit_names_the_unknown_model(client, site, owner_token):
    body = _error(
        _post(
            client,
            "/api/jobs",
            {"models": ["alpha", "nobody"], "benchmarks": ["hanabi/*"]},
            owner_token,
        ),
        422,
        "invalid",
    )
    assert "nobody" in body["error"]["message"]


def test_submit_rejects_wrong_content_type_and_huge_bodies(client, owner_token):
    _error(
        _post(
            client,
            "/api/jobs",
            "models=x",
            owner_token,
            content_type="application/x-www-form-urlencoded",
        ),
        400,
        "bad_request",
    )
    huge = json.dumps({"models": ["x" * (MAX_BODY_BYTES + 10)], "benchmarks": ["y"]})
    _error(_post(client, "/api/jobs", huge, owner_token), 413, "too_large")


def test_staff_submits_cancels_and_resumes_a_job(
    client, catalog, owner, owner_token, no_broker, django_capture_on_commit_callbacks
):
    bench = catalog[0]
    from evaluators.registry import family_builtins

    player = f"builtin-{min(family_builtins(bench.family))}"
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(
            client,
            "/api/jobs",
            {"models": [player], "benchmarks": [bench.slug], "samples": 1, "name": "api job"},
            owner_token,
        )
    assert response.status_code == 201, response.content
    job = Job.objects.get(pk=response.json()["id"])
    assert response["Location"] == f"/api/jobs/{job.pk}"
    assert job.submitted_by == owner and job.name == "api job" and job.total_items > 0
    assert ItemResult.objects.filter(run__job=job).count() == job.total_items
    assert no_broker == [job.pk]

    cancelled = _post(client, f"/api/jobs/{job.pk}/cancel", None, owner_token).json()
    assert cancelled["status"] == "cancelled" and cancelled["cancelled_items"] == job.total_items
    with django_capture_on_commit_callbacks(execute=True):
        resumed = _post(client, f"/api/jobs/{job.pk}/resume", None, owner_token).json()
    assert no_broker == [job.pk, job.pk]
    assert resumed["requeued_items"] == job.total_items and resumed["status"] == "running"


def test_cancel_and_resume_need_staff_and_an_existing_job(
    client, site, owner_token, outsider_token
):
    job = site["job"]
    _error(_post(client, f"/api/jobs/{job.pk}/cancel"), 401, "unauthenticated")
    _error(_post(client, f"/api/jobs/{job.pk}/cancel", None, outsider_token), 403, "forbidden")
    _error(_post(client, f"/api/jobs/{job.pk}/resume", None, outsider_token), 403, "forbidden")
    _error(_post(client, "/api/jobs/9999/cancel", None, owner_token), 404, "not_found")
    _error(_post(client, "/api/jobs/9999/resume", None, owner_token), 404, "not_found")
    _error(
        _post(client, f"/api/jobs/{job.pk}/cancel", None, owner_token), 409, "conflict"
    )  # already done


def test_writes_need_no_csrf_token_because_cookies_do_not_authenticate(site, owner, owner_token):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)  # a session alone is not enough for the API
    _error(_post(strict, f"/api/jobs/{site['job'].pk}/cancel"), 401, "unauthenticated")
    _error(_post(strict, f"/api/jobs/{site['job'].pk}/cancel", None, owner_token), 409, "conflict")


def test_a_body_without_length_over_the_limit_is_413(client, owner_token, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    from django.test import RequestFactory

    from api.views import jobs

    body = json.dumps({"models": ["x" * 5000], "benchmarks": ["y"]}).encode()
    request = RequestFactory().post(
        "/api/jobs",
        data=body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {owner_token}",
    )
    del request.META["CONTENT_LENGTH"]  # as a chunked upload arrives
    response = jobs(request)
    assert (
        response.status_code == 413 and json.loads(response.content)["error"]["code"] == "too_large"
    )
