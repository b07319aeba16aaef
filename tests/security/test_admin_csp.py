"""Admin pages carry a Content-Security-Policy: scripts from this origin only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/admin/login/", "/admin/", "/admin/jobs/job/", "/admin/catalog/modelentry/add/"]
)
def test_admin_pages_send_a_csp_without_inline_scripts(path):
    client = Client()
    if path != "/admin/login/":
        client.force_login(
            get_user_model().objects.create_superuser("root", "r@example.test", "pw")
        )
    response = client.get(path)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert (
        "script-src 'self'" in policy
        and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    )
    assert "frame-ancestors 'none'" in policy
