"""A staff user who may only view jobs (jobs.view_job) cannot cancel, resume or submit them:
not through the job page's buttons, the admin actions or the API. A job operator can."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from api.services import api_token_create
from catalog.models import ModelEntry
from jobs import services
from jobs.models import Job
from tests.fixtures.users import job_operator

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(catalog, demo_exam, monkeypatch):
    monkeypatch.setattr("jobs.queue.enqueue_dispatch", lambda job_id: None)
    reference = ModelEntry.objects.get(litellm_model="builtin/reference")
    return services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)


@pytest.fixture
def viewer(db):
    user = get_user_model().objects.create_user("viewer", password="pw", is_staff=True)
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="jobs", codename="view_job")
    )
    return user


def _api(token: str, path: str, body: dict | None = None):
    return Client().post(
        path,
        json.dumps(body or {}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_a_viewer_cannot_change_jobs_anywhere(job, viewer):
    browser = Client()
    browser.force_login(viewer)
    page = browser.get(f"/jobs/{job.pk}/").content.decode()
    assert 'id="cancel-form"' not in page  # no buttons it may not use
    assert browser.post(f"/jobs/{job.pk}/cancel/").status_code == 403
    assert browser.post(f"/jobs/{job.pk}/resume/").status_code == 403
    assert browser.get("/admin/jobs/job/").status_code == 200  # it may look
    browser.post("/admin/jobs/job/", {"action": "cancel_jobs", "_selected_action": [job.pk]})

    token = api_token_create(user=viewer, name="viewer")[1]
    assert _api(token, f"/api/jobs/{job.pk}/cancel").status_code == 403
    assert _api(token, f"/api/jobs/{job.pk}/resume").status_code == 403
    submit = _api(token, "/api/jobs", {"models": ["builtin/reference"], "benchmarks": ["hipho/*"]})
    assert submit.status_code == 403 and "jobs.add_job" in submit.json()["error"]["message"]

    job.refresh_from_db()
    assert job.status == Job.Status.PENDING and Job.objects.count() == 1


def test_a_job_operator_can_cancel_from_the_page_and_the_admin(job):
    operator = job_operator("operator", password="pw")
    browser = Client()
    browser.force_login(operator)
    assert 'id="cancel-form"' in browser.get(f"/jobs/{job.pk}/").content.decode()
    browser.post("/admin/jobs/job/", {"action": "cancel_jobs", "_selected_action": [job.pk]})
    job.refresh_from_db()
    assert job.status == Job.Status.CANCELLED
