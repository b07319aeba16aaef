"""The job page stays true to the end while a real Celery worker runs the job: run rows, the
status badge and the staff buttons update live; a job whose every item failed ends as "failed"
(never a green "done"); cancelling asks first."""

import pytest
from django.contrib.auth import get_user_model

from catalog.models import ModelEntry
from jobs import services
from jobs.models import Job
from tests.fakes.openai_server import error

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"


def _login(page, live_server):
    get_user_model().objects.create_superuser("owner", "owner@example.org", PASSWORD)
    page.goto(live_server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", "owner")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")


def _row_statuses(page) -> list[str]:
    return page.locator('table[data-table="job-runs"] tbody tr .badge').all_text_contents()


def test_rows_status_and_buttons_follow_the_job_to_the_end(
    live_server, page, celery_worker, fake_llm, fake_model, demo_exam
):
    _login(page, live_server)
    fake_llm.rule = lambda request: "Step by step: the answer is \\boxed{1}."
    fake_llm.configure(latency=0.2)
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    page.goto(live_server.url + f"/jobs/{job.pk}/")  # no worker yet: pending
    assert (
        _row_statuses(page) == ["pending"]
        and page.is_visible("#cancel-job")
        and not page.is_visible("#resume-job")
    )
    page.set_default_timeout(120_000)
    celery_worker(concurrency=2)
    page.wait_for_selector('#progress[data-status="done"]')
    assert page.text_content("#progress-status") == "done"
    assert _row_statuses(page) == ["done"]  # the row, not only the bar
    assert not page.is_visible("#cancel-job") and not page.is_visible("#resume-job")
    items = page.locator('table[data-table="job-runs"] tbody tr td').nth(4).inner_text()
    job.refresh_from_db()
    assert items == f"{job.total_items} / 0 / {job.total_items}"

    # every call rejected: every item fails, and the page says so live
    # (another model string, so the response cache of the first job cannot answer it)
    fake_llm.rule = lambda request: error(400, "bad request: this model does not exist")
    broken = ModelEntry.objects.create(
        slug="broken",
        display_name="Broken",
        litellm_model="openai/gpt-broken",
        api_base=fake_model.api_base,
        api_key_env=fake_model.api_key_env,
    )
    failing = services.job_submit(models=[broken], benchmarks=[demo_exam], samples=1)
    page.goto(live_server.url + f"/jobs/{failing.pk}/")
    page.wait_for_selector('#progress[data-status="done"]')
    failing.refresh_from_db()
    assert (
        failing.status == Job.Status.DONE and failing.done_items == 0 and failing.failed_items > 0
    )
    assert page.text_content("#progress-status") == "failed"
    assert page.evaluate(
        "getComputedStyle(document.getElementById('progress-status')).backgroundColor"
    ) != page.evaluate(
        "getComputedStyle(document.querySelector('.badge.done') || document.body).backgroundColor"
    )
    assert _row_statuses(page) == ["failed"]
    assert not page.is_visible("#cancel-job") and page.is_visible("#resume-job")
    assert page.console.errors == []


def test_cancel_asks_for_confirmation(live_server, page, fake_model, demo_exam):
    _login(page, live_server)
    job = services.job_submit(
        models=[fake_model], benchmarks=[demo_exam], samples=1
    )  # no worker: stays pending
    page.goto(live_server.url + f"/jobs/{job.pk}/")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#cancel-job")
    page.wait_for_timeout(300)
    job.refresh_from_db()
    assert asked and "Cancel job" in asked[0] and job.status == Job.Status.PENDING
    page.once("dialog", lambda d: d.accept())
    page.click("#cancel-job")
    page.wait_for_selector('#progress[data-status="cancelled"]')
    job.refresh_from_db()
    assert (
        job.status == Job.Status.CANCELLED
        and page.is_visible("#resume-job")
        and not page.is_visible("#cancel-job")
    )
