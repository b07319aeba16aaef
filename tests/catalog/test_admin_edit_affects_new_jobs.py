"""The admin says what an edit to a model does: it applies to jobs submitted from now on, while
submitted runs keep the parameters frozen in their spec (tests/jobs/test_execute_from_spec.py
shows a worker honouring that)."""

import pytest
from django.contrib.auth import get_user_model

from catalog.admin import NEW_JOBS_ONLY
from catalog.models import ModelEntry

pytestmark = pytest.mark.django_db


def test_it_tells_staff_an_edit_changes_only_new_jobs(client):
    client.force_login(get_user_model().objects.create_superuser("owner", "o@x.org", "pw-long-1"))
    model = ModelEntry.objects.create(
        slug="m", display_name="M", litellm_model="openai/gpt-4o-mini", params={"temperature": 0.6}
    )
    url = f"/admin/catalog/modelentry/{model.pk}/change/"
    assert "submitted and resumed runs keep" in client.get(url).content.decode()

    form = {
        "slug": "m",
        "display_name": "M",
        "litellm_model": "openai/gpt-4o-mini",
        "api_base": "",
        "api_key_env": "",
        "params": '{"temperature": 1.0}',
        "organisation": "",
        "modality": "text",
        "notes": "",
        "active": "on",
    }
    response = client.post(url, form, follow=True)
    assert response.status_code == 200
    assert NEW_JOBS_ONLY in [str(m) for m in response.context["messages"]]
    model.refresh_from_db()
    assert model.params == {"temperature": 1.0}
