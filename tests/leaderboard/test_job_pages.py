"""Queue, job page, progress JSON and the staff-only, CSRF-protected cancel / resume."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from jobs.models import ItemResult, Job, Run
from tests.fixtures.users import job_operator
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_job():
    m, b = f.model("m1"), f.benchmark("hanabi/a", "hanabi")
    job = f.job(
        name="live one", status=Job.Status.RUNNING, total_items=4, done_items=1, failed_items=1
    )
    run = f.run(m, b, None, job_obj=job, total_items=4, done_items=1, failed_items=1)
    for i, state in enumerate(["done", "failed", "pending", "pending"]):
        f.item(run, f"g{i}", state=state)
    return job


@pytest.fixture
def staff(db):
    return job_operator("owner", password="pw")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider", password="pw")


def test_queue_lists_live_and_finished_jobs(client, live_job, site):
    html = client.get(reverse("leaderboard:queue")).content.decode()
    live = html.split('data-table="queue-live"')[1].split("</table>")[0]
    finished = html.split('data-table="queue-finished"')[1].split("</table>")[0]
    assert "live one" in live and "demo" not in live
    assert "demo" in finished and "2/4 (50%)" in live
    assert "M1" in live and "Alpha, Beta, Gamma" in finished  # where a submitter finds their model
    assert '<td class="num"><span>1</span></td>' in live  # first in the queue


def test_progress_json_counts_items_and_lists_runs(client, live_job):
    data = client.get(reverse("leaderboard:job_progress", args=[live_job.pk])).json()
    assert (data["done"], data["failed"], data["total"], data["status"]) == (1, 1, 4, "running")
    assert data["fraction"] == 0.5 and "runs" not in data
    data = client.get(reverse("leaderboard:job_progress", args=[live_job.pk]), {"runs": "1"}).json()
    assert data["runs"][0]["benchmark"] == "hanabi/a" and data["runs"][0]["done"] == 1


def test_job_page_shows_buttons_only_to_staff(client, live_job, staff, outsider):
    url = reverse("leaderboard:job", args=[live_job.pk])
    assert "cancel-job" not in client.get(url).content.decode()
    client.force_login(outsider)
    assert "cancel-job" not in client.get(url).content.decode()
    client.force_login(staff)
    html = client.get(url).content.decode()
    assert "cancel-job" in html and "resume-job" in html and "csrfmiddlewaretoken" in html


def test_cancel_needs_staff_post_and_csrf(live_job, staff, outsider):
    url = reverse("leaderboard:job_cancel", args=[live_job.pk])
    anonymous = Client(enforce_csrf_checks=True)
    assert anonymous.post(url).status_code == 403
    c = Client()
    c.force_login(outsider)
    assert c.post(url).status_code == 403
    c.force_login(staff)
    assert c.get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(staff)
    assert strict.post(url).status_code == 403  # no CSRF token
    live_job.refresh_from_db()
    assert live_job.status == Job.Status.RUNNING
    response = c.post(url)
    assert response.status_code == 302
    live_job.refresh_from_db()
    assert live_job.status == Job.Status.CANCELLED
    assert ItemResult.objects.filter(run__job=live_job, state="cancelled").count() == 2


def test_resume_requeues_failed_and_cancelled_items(client, live_job, staff, monkeypatch):
    dispatched = []
    monkeypatch.setattr(
        "jobs.queue.enqueue_dispatch", dispatched.append
    )  # the broker is not under test here
    client.force_login(staff)
    client.post(reverse("leaderboard:job_cancel", args=[live_job.pk]))
    response = client.post(reverse("leaderboard:job_resume", args=[live_job.pk]), follow=True)
    assert "3 item(s) re-queued" in response.content.decode()
    assert ItemResult.objects.filter(run__job=live_job, state="pending").count() == 3
    assert Run.objects.get(job=live_job).failed_items == 0


def test_missing_job_is_404(client):
    assert client.get(reverse("leaderboard:job", args=[999])).status_code == 404
    assert client.get(reverse("leaderboard:job_progress", args=[999])).status_code == 404
