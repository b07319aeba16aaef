"""An API key with a recognisable value sits in the environment variable a model names; a job
runs through a real worker and fails with a provider error whose message echoes the key (as some
providers do). The key must then appear nowhere: database rows (every table, dumped as text),
the worker's log, public and admin pages, the API, CSV/JSON downloads, the call log, and the
exception report Django would render or mail for an error raised while it is set."""

from __future__ import annotations

import io
import re
import sys
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.views.debug import ExceptionReporter

from catalog.models import ModelEntry
from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import error
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

KEY_ENV = "PODIUM_CANARY_KEY"
# a variable whose name Django's own filter does not recognise as secret (no KEY/TOKEN/...)
PLAIN_ENV = "PODIUM_CANARY_PROVIDER_CRED"
_DOWNLOAD = re.compile(r'href="\?([^"]*download=[^"]*)"')


def _pages(client: Client, paths: list[str]) -> list[str]:
    out = []
    for path in paths:
        response = client.get(path)
        assert response.status_code in (200, 404), (path, response.status_code)
        text = response.content.decode("utf-8", "replace")
        out.append(text)
        for query in set(_DOWNLOAD.findall(text)):
            download = client.get(f"{path}?{query.replace('&amp;', '&')}")
            out.append(download.content.decode("utf-8", "replace"))
    return out


def _report(request, message: str) -> tuple[str, str]:
    """The reports of an error raised while serving ``request`` (a frame without the key)."""
    try:
        raise RuntimeError(message)
    except RuntimeError:
        reporter = ExceptionReporter(request, *sys.exc_info())
        return reporter.get_traceback_text(), reporter.get_traceback_html()


def test_the_key_never_appears_in_any_output(celery_worker, fake_llm, hipho_exam, monkeypatch):
    key = f"sk-podium-canary-{uuid.uuid4().hex}"
    monkeypatch.setenv(KEY_ENV, key)
    monkeypatch.setenv(PLAIN_ENV, key)
    fake_llm.rule = lambda request: error(
        401,
        f"Incorrect API key provided: {key}. You can find your API key at https://example.test.",
        code="invalid_api_key",
    )
    model = ModelEntry.objects.create(
        slug="canary",
        display_name="Canary",
        litellm_model="openai/gpt-4o-mini",
        api_base=fake_llm.base_url,
        api_key_env=KEY_ENV,
    )
    worker = celery_worker(concurrency=2)
    job = services.job_submit(models=[model], benchmarks=[hipho_exam], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=120,
        what="the job to end",
    )
    job.refresh_from_db()
    assert job.failed_items == job.total_items == 7
    # the key really was used, and the provider really echoed it
    assert f"Bearer {key}" in fake_llm.counters.authorizations
    item = ItemResult.objects.filter(run__job=job).first()
    assert "AuthenticationError" in item.error and "***" in item.error

    outputs: dict[str, str] = {}
    outputs["worker log"] = worker.log()
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    outputs["database dump"] = dump.getvalue()
    outputs["call log"] = " ".join(
        f"{c.error_message} {c.reply} {c.messages}" for c in LLMCall.objects.all()
    )

    run = job.runs.get()
    items = list(ItemResult.objects.filter(run__job=job))
    call = LLMCall.objects.filter(run=run).first()
    public = [
        "/",
        "/jobs/",
        f"/jobs/{job.pk}/",
        f"/jobs/{job.pk}/progress.json",
        f"/runs/{run.pk}/",
        f"/models/{model.slug}/",
        f"/benchmarks/{hipho_exam.pk}/",
        "/hipho/",
    ]
    for it in items:
        public.append(f"/items/{it.pk}/")
        public += [f"/items/{it.pk}/text/{i}/" for i in range(len(it.transcript))]
    api = [
        "/api/jobs",
        f"/api/jobs/{job.pk}",
        f"/api/runs/{run.pk}",
        f"/api/runs/{run.pk}/items",
        "/api/models",
        f"/api/models/{model.slug}",
        "/api/leaderboard",
    ]
    api += [f"/api/items/{it.pk}" for it in items]
    admin = [
        "/admin/",
        "/admin/jobs/job/",
        f"/admin/jobs/job/{job.pk}/change/",
        "/admin/jobs/run/",
        f"/admin/jobs/run/{run.pk}/change/",
        "/admin/jobs/itemresult/",
        f"/admin/jobs/itemresult/{items[0].pk}/change/",
        "/admin/jobs/llmcall/",
        f"/admin/jobs/llmcall/{call.pk}/change/",
        "/admin/catalog/modelentry/",
        f"/admin/catalog/modelentry/{model.pk}/change/",
        "/admin/catalog/modelentry/add/",
    ]
    anonymous = Client()
    outputs["public pages and downloads"] = "\n".join(_pages(anonymous, public))
    outputs["api"] = "\n".join(_pages(anonymous, api))
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "root@example.test", "pw"))
    outputs["staff pages"] = "\n".join(_pages(staff, public))
    outputs["admin"] = "\n".join(_pages(staff, admin))

    # the error report of a request served while the key is in the process environment
    # (runserver and many WSGI servers copy os.environ into request.META)
    import os

    request = RequestFactory().get(f"/jobs/{job.pk}/", **{k: v for k, v in os.environ.items()})
    outputs["exception report (text)"], outputs["exception report (html)"] = _report(
        request, item.error
    )

    leaked = [where for where, text in outputs.items() if key in text]
    assert not leaked, f"the API key appears in: {leaked}"
    assert len(outputs["admin"]) > 1000 and len(outputs["public pages and downloads"]) > 1000
