"""Job pages tell an ended job's outcome apart (done / partial / failed) and page their runs."""

import pytest
from django.urls import reverse

from jobs.models import Job, Run
from leaderboard.pages import outcome
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_it_names_the_outcome_of_an_ended_job():
    assert outcome("done", 4, 0, 4) == "done"
    assert outcome("done", 3, 1, 4) == "partial"
    assert outcome("done", 0, 4, 4) == "failed"
    assert outcome("running", 0, 2, 4) == "running"  # still running: not judged yet
    assert outcome("cancelled", 1, 1, 4) == "cancelled"


def test_it_shows_an_all_failed_job_as_failed_not_done(client):
    m, b = f.model("m1"), f.benchmark("hanabi/a", "hanabi")
    job = f.job(status=Job.Status.DONE, total_items=2, done_items=0, failed_items=2)
    run = f.run(m, b, None, job_obj=job, total_items=2, done_items=0, failed_items=2)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.DONE)
    html = client.get(reverse("leaderboard:job", args=[job.pk])).content.decode()
    assert 'id="progress-status" title="ended; every item failed">failed<' in html
    assert (
        '<span class="badge done">' not in html
        and '<span class="badge failed">failed</span>' in html
    )
    data = client.get(reverse("leaderboard:job_progress", args=[job.pk]), {"runs": "1"}).json()
    assert data["outcome"] == "failed" and data["runs"][0]["outcome"] == "failed"
    assert data["can_cancel"] is False and data["can_resume"] is True
    queue = client.get(reverse("leaderboard:queue")).content.decode()
    assert '<span class="badge failed">failed</span>' in queue


def test_it_pages_the_runs_of_a_big_job_in_the_progress_json(client):
    job = f.job(status=Job.Status.RUNNING, total_items=60, done_items=10)
    b = f.benchmark("hanabi/a", "hanabi")
    for i in range(60):
        f.run(f.model(f"m{i:02d}"), b, None, job_obj=job, total_items=1)
    url = reverse("leaderboard:job_progress", args=[job.pk])
    first = client.get(url, {"runs": "1"}).json()
    second = client.get(url, {"runs": "1", "page": "2"}).json()
    assert (len(first["runs"]), len(second["runs"])) == (50, 10)
    assert (first["runs_page"], first["runs_pages"], second["runs_page"]) == (1, 2, 2)
    assert {r["id"] for r in first["runs"]}.isdisjoint(r["id"] for r in second["runs"])
    html = client.get(reverse("leaderboard:job", args=[job.pk])).content.decode()
    assert html.count("<tr data-key=") == 50 and "page 1 of 2" in html
