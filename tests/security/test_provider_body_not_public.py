"""Staff pointed a model at an internal address whose 403 answer carries internal data. The
raw body stays staff-only: public pages, CSV and the API show a classified error."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from evaluators.llm import LLMError
from jobs import queue, services
from jobs.llm_wiring import CallScope, gateway, scope_set
from jobs.models import ItemResult
from jobs.runner import _failure_reason
from tests.fakes.openai_server import error

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "internal-metadata-AKIAEXAMPLE0123"


def _texts(client: Client, paths: list[str]) -> str:
    out = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        text = response.content.decode()
        out.append(text)
        for query in set(re.findall(r'href="\?([^"]*download=[^"]*)"', text)):
            out.append(client.get(f"{path}?{query.replace('&amp;', '&')}").content.decode())
    return "\n".join(out)


def test_a_provider_body_is_staff_only(fake_llm, fake_model, demo_exam, monkeypatch):
    monkeypatch.setattr(queue, "enqueue_dispatch", lambda job_id: None)
    fake_llm.rule = lambda request: error(403, f"forbidden: {SECRET}")
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    item = ItemResult.objects.filter(run__job=job).first()
    token = services.item_claim(item_id=item.pk)
    scope_set(CallScope(run_id=item.run_id, item_id=item.pk))
    try:
        with pytest.raises(LLMError) as failure:
            gateway().complete([{"role": "user", "content": "q"}], model=fake_model.to_config())
    finally:
        scope_set(None)
    services.item_fail(item_id=item.pk, token=token, reason=_failure_reason(failure.value))
    item.refresh_from_db()
    assert SECRET in item.error  # stored for staff, as the provider said it

    paths = [
        f"/runs/{item.run_id}/",
        f"/items/{item.pk}/",
        f"/api/runs/{item.run_id}/items",
        f"/api/items/{item.pk}",
    ]
    public = _texts(Client(), paths)
    assert SECRET not in public
    assert "provider returned 403" in public

    staff = get_user_model().objects.create_user("staffer", password="pw", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert SECRET in client.get(f"/items/{item.pk}/").content.decode()
