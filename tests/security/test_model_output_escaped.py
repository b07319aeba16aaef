"""Model output is untrusted: a reply carrying markup and spreadsheet formulas is escaped on the
public pages, in the admin (item, call log, run) and defused in CSV downloads."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from catalog.models import ModelEntry
from evaluators.base import ItemOutcome
from jobs import services
from jobs.models import ItemResult, LLMCall

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("pwn")</script><img src=x onerror=alert(1)>'
FORMULA = "=cmd|' /C calc'!A0"


def test_hostile_model_output_is_escaped_in_pages_admin_and_downloads(hipho_exam):
    model = ModelEntry.objects.create(
        slug="evil",
        display_name=FORMULA,
        litellm_model="openai/gpt-4o-mini",
        notes=EVIL,
        organisation=EVIL,
    )
    job = services.job_submit(models=[model], benchmarks=[hipho_exam], samples=1)
    item = ItemResult.objects.filter(run__job=job).first()
    token = services.item_claim(item_id=item.pk)
    services.item_finish(
        item_id=item.pk,
        token=token,
        outcome=ItemOutcome(
            score=0.0,
            scores={"A": 0.0, "note": EVIL},
            details={"reply": EVIL, "answers": []},
            transcript=[{"role": "prompt", "text": "q"}, {"role": "reply", "text": EVIL + FORMULA}],
        ),
    )
    LLMCall.objects.create(
        run=item.run,
        item=item,
        request_hash="h" * 64,
        model="openai/gpt-4o-mini",
        messages=[{"role": "user", "content": EVIL}],
        reply=EVIL,
        error_message=EVIL,
    )
    call = LLMCall.objects.get(item=item)
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "r@example.test", "pw"))
    pages = {
        "item": (Client(), f"/items/{item.pk}/"),
        "reply text": (Client(), f"/items/{item.pk}/text/1/"),
        "run": (Client(), f"/runs/{item.run_id}/"),
        "job": (Client(), f"/jobs/{job.pk}/"),
        "model": (Client(), f"/models/{model.slug}/"),
        "admin item": (staff, f"/admin/jobs/itemresult/{item.pk}/change/"),
        "admin call": (staff, f"/admin/jobs/llmcall/{call.pk}/change/"),
        "admin calls": (staff, "/admin/jobs/llmcall/"),
        "admin model": (staff, f"/admin/catalog/modelentry/{model.pk}/change/"),
        "admin models": (staff, "/admin/catalog/modelentry/"),
    }
    for name, (client, path) in pages.items():
        response = client.get(path)
        assert response.status_code == 200, (name, response.status_code)
        html = response.content.decode()
        if response["Content-Type"].startswith("text/plain"):
            # raw text is fine when no browser can take it for HTML
            assert response["X-Content-Type-Options"] == "nosniff"
            assert "sandbox" in response["Content-Security-Policy"]
            continue
        assert "<script>alert(" not in html and "<img src=x" not in html, (
            f"unescaped markup on {name}"
        )
        if "text/html" in response["Content-Type"] and name in ("item", "admin item", "admin call"):
            assert "&lt;script&gt;" in html or "&lt;script" in html, (
                f"the reply is not shown on {name}"
            )
    # every CSV download of the public pages defuses formula cells
    for path in [f"/runs/{item.run_id}/", f"/jobs/{job.pk}/", "/", f"/models/{model.slug}/"]:
        html = Client().get(path).content.decode()
        for query in set(re.findall(r'href="\?([^"]*format=csv[^"]*)"', html)):
            response = Client().get(f"{path}?{query.replace('&amp;', '&')}")
            for row in csv.reader(io.StringIO(response.content.decode())):
                for cell in row:
                    assert not cell.startswith(("=", "+", "@")) or cell.startswith("'"), (
                        path,
                        cell,
                    )
