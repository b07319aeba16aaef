"""The admin speaks Podium: its own branding, human field labels, a benchmark picker by family."""

import pytest
from django.contrib.auth import get_user_model

from catalog.models import Benchmark

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("owner", "o@example.org", "pw-long-enough-1")
    client.force_login(user)
    return client


def test_it_brands_the_admin_and_labels_model_fields_in_words(staff_client):
    html = staff_client.get("/admin/catalog/modelentry/add/").content.decode()
    assert "Podium administration" in html
    for label in ("litellm model string", "API key variable", "parameters (billions)"):
        assert (
            f">{label[0].upper() + label[1:]}:</label>" in html or f">{label}:</label>" in html
        ), label


def test_it_lets_the_job_form_filter_benchmarks_by_family(staff_client):
    for i in range(3):
        Benchmark.objects.create(slug=f"hipho/e{i}", name=f"E{i}", family="hipho")
    Benchmark.objects.create(slug="chess/best", name="Best", family="chess")
    html = staff_client.get("/admin/jobs/job/submit/").content.decode()
    assert 'id="benchmark-family"' in html and "admin_benchmarks.js" in html
    assert html.count('data-family="hipho"') == 3 and html.count('data-family="chess"') == 1
