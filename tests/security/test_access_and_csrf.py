"""Who may do what: only staff submit models and jobs (admin, job buttons, API); the public
reads pages and the API; API tokens are per user and revocable; every form carries a CSRF
token and a POST without one is refused; production settings pass `check --deploy`."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from api.services import api_token_create, api_token_revoke
from catalog.models import ModelEntry
from jobs.models import Job

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.DOTALL | re.IGNORECASE)
_ACTION = re.compile(r'action="([^"]*)"')


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user(
        "owner", password="pw", is_staff=True, is_superuser=True
    )


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider", password="pw")


@pytest.fixture
def reference(db) -> ModelEntry:
    return ModelEntry.objects.create(
        slug="builtin-reference", display_name="Reference", litellm_model="builtin/reference"
    )


@pytest.fixture
def job(reference, hipho_exam) -> Job:
    from jobs import services

    return services.job_submit(models=[reference], benchmarks=[hipho_exam], samples=1)


def _api_submit(client: Client, hipho_exam, **headers):
    body = {"models": ["builtin-reference"], "benchmarks": [hipho_exam.slug], "samples": 1}
    return client.post("/api/jobs", json.dumps(body), content_type="application/json", **headers)


def test_it_lets_only_staff_submit_jobs_through_the_api(
    client, owner, outsider, reference, hipho_exam
):
    staff_raw = api_token_create(user=owner, name="ci")[1]
    outsider_raw = api_token_create(user=outsider, name="mine")[1]
    assert _api_submit(client, hipho_exam).status_code == 401  # no token
    assert (
        _api_submit(client, hipho_exam, HTTP_AUTHORIZATION=f"Bearer {outsider_raw}").status_code
        == 403
    )
    assert (
        _api_submit(client, hipho_exam, HTTP_AUTHORIZATION="Bearer pdm_forged").status_code == 401
    )
    assert Job.objects.count() == 0
    client.force_login(owner)  # a staff session cookie is no API credential
    assert _api_submit(client, hipho_exam).status_code == 401
    assert Job.objects.count() == 0
    response = _api_submit(Client(), hipho_exam, HTTP_AUTHORIZATION=f"Bearer {staff_raw}")
    assert response.status_code == 201 and Job.objects.count() == 1


def test_it_refuses_a_revoked_token_at_once(owner, reference, hipho_exam):
    token, raw = api_token_create(user=owner, name="laptop")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
    assert Client().get("/api/jobs", **auth).status_code == 200
    api_token_revoke(token=token)
    response = _api_submit(Client(), hipho_exam, **auth)
    assert response.status_code == 401 and "revoked" in response.json()["error"]["message"]
    assert Client().get("/api/jobs", **auth).status_code == 401  # not even reads
    assert Job.objects.count() == 0


def test_it_keeps_the_public_read_only(client, outsider, job):
    for path in ["/", "/jobs/", f"/jobs/{job.pk}/", "/hipho/", "/api/jobs", f"/api/jobs/{job.pk}"]:
        assert client.get(path).status_code == 200, path
    client.force_login(outsider)  # logged in but not staff
    for path in [f"/jobs/{job.pk}/cancel/", f"/jobs/{job.pk}/resume/"]:
        assert client.post(path).status_code in (302, 403), path
    assert client.get("/admin/catalog/modelentry/add/").status_code == 302  # to the login page
    response = client.post(
        "/admin/catalog/modelentry/add/",
        {
            "slug": "sneaky",
            "display_name": "Sneaky",
            "litellm_model": "openai/gpt-4o",
            "params": "{}",
            "modality": "text",
        },
    )
    assert response.status_code == 302 and not ModelEntry.objects.filter(slug="sneaky").exists()
    for path in [f"/api/jobs/{job.pk}/cancel", f"/api/jobs/{job.pk}/resume"]:
        assert client.post(path).status_code == 401, path
    job.refresh_from_db()
    assert job.status == Job.Status.PENDING


def _forms(client: Client, paths: list[str]) -> list[tuple[str, str, str]]:
    found = []
    for path in paths:
        html = client.get(path).content.decode()
        for attrs, body in _FORM.findall(html):
            if 'method="post"' in attrs.lower():
                action = (_ACTION.search(attrs) or [None, path])[1] or path
                found.append((path, action.replace("&amp;", "&"), body))
    return found


def test_every_form_carries_a_csrf_token_and_posts_without_one_are_refused(owner, job):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(owner)
    pages = [
        "/",
        "/jobs/",
        f"/jobs/{job.pk}/",
        "/admin/",
        "/admin/catalog/modelentry/add/",
        "/admin/catalog/benchmark/add/",
        "/admin/jobs/job/",
        f"/admin/jobs/job/{job.pk}/change/",
        "/admin/password_change/",
        "/admin/jobs/job/add/",
    ]
    forms = _forms(csrf_client, pages)
    assert len(forms) >= 6, forms
    for page, action, body in forms:
        assert 'name="csrfmiddlewaretoken"' in body, (
            f"form on {page} posting to {action} has no token"
        )
        target = (
            action if action.startswith("/") else page + action if action.startswith("?") else page
        )
        response = csrf_client.post(target, {})
        assert response.status_code == 403, f"{target} accepted a POST without a CSRF token"
    login = Client(enforce_csrf_checks=True)
    assert login.post("/admin/login/", {"username": "owner", "password": "pw"}).status_code == 403
    job.refresh_from_db()
    assert job.status == Job.Status.PENDING and ModelEntry.objects.count() == 1


def test_production_settings_pass_the_deployment_checks(tmp_path):
    env = {
        **os.environ,
        "PODIUM_PRODUCTION": "true",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "podium.example.org",
        "DEBUG": "false",
        "DATABASE_URL": "sqlite:///" + str(ROOT / "var" / "check-deploy.sqlite3"),
        "STATIC_ROOT": str(tmp_path / "static"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    }
    # as scripts/serve.sh does: without collected static files the check fails (podium.E001)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
