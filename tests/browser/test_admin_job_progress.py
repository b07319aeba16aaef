"""A staff user registers a model and submits a job through the admin, then watches the job's
progress bar reach 100% while a real Celery worker evaluates it (model reached over HTTP)."""

import pytest
from django.contrib.auth import get_user_model

from catalog.models import Benchmark, ModelEntry
from jobs.models import Job

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def boxed_answer(request):
    return "Step by step: the answer is \\boxed{1}."


def test_staff_submits_a_model_and_a_job_and_watches_progress(
    live_server, page, celery_worker, fake_llm
):
    from catalog.services import benchmarks_ensure
    from tests.fakes.openai_server import FAKE_KEY_ENV

    benchmarks_ensure("hipho")
    exam = Benchmark.objects.filter(family="hipho").order_by("slug").first()
    get_user_model().objects.create_superuser("owner", "owner@example.org", "a-long-password-1")
    fake_llm.rule = boxed_answer
    fake_llm.configure(latency=0.5)  # slow enough to see the bar move
    celery_worker(concurrency=2)
    # a real worker shares the machine (and, on SQLite, the database file) with the live server
    page.set_default_timeout(60_000)

    page.goto(live_server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", "owner")
    page.fill("#id_password", "a-long-password-1")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")

    page.goto(live_server.url + "/admin/catalog/modelentry/add/")
    page.fill("#id_display_name", "Browser Model")
    # the slug is prepopulated from the display name by the admin's own script
    page.fill("#id_litellm_model", "openai/gpt-4o-mini")
    page.fill("#id_api_base", fake_llm.base_url)
    page.fill("#id_api_key_env", FAKE_KEY_ENV)
    page.click("input[name=_save]")
    page.wait_for_url("**/admin/catalog/modelentry/")
    model = ModelEntry.objects.get(slug="browser-model")

    page.goto(live_server.url + "/admin/jobs/job/submit/")
    page.select_option("#id_models", str(model.pk))
    page.select_option("#id_benchmarks", str(exam.pk))
    page.fill("#id_samples", "2")
    page.click("#job-submit-form input[name=_submit]")
    page.wait_for_url("**/jobs/*/")
    job = Job.objects.get()
    assert page.url.endswith(f"/jobs/{job.pk}/")

    # the bar is driven by polling the JSON endpoint: record every value it shows on the way
    page.evaluate("""() => {
        window.__percents = [];
        const block = document.getElementById('progress');
        new MutationObserver(() => window.__percents.push(Number(block.dataset.percent)))
            .observe(block, {attributes: true, attributeFilter: ['data-percent']});
    }""")
    page.wait_for_selector('#progress[data-percent="100"][data-status="done"]', timeout=180_000)
    assert page.locator("#progress-bar").get_attribute("style").replace(" ", "") == "width:100%;"
    seen = page.evaluate("window.__percents")
    assert seen == sorted(seen) and seen[-1] == 100 and len(set(seen)) >= 2, seen
    text = page.inner_text("#progress-text")
    assert text.startswith(f"{job.total_items} done, 0 failed of {job.total_items}")
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.done_items == job.total_items > 0
    # the finished run is on the board at once
    page.goto(live_server.url + f"/models/{model.slug}/")
    assert exam.name in page.inner_text("main")
    assert page.console.errors == []
