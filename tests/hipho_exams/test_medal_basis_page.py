"""The medal table and the exam page say that medals are decided on the score as published."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_the_pages_say_medals_go_by_the_published_score(client):
    bench = f.benchmark("hipho/ipho-2025", "hipho")
    f.run(f.model("m1"), bench, f.hipho_metrics(19.66, medal="gold"))
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    assert "decided on the score as published, rounded to one decimal" in html
    exam = client.get(reverse("leaderboard:hipho_exam", args=["ipho-2025"])).content.decode()
    assert "decided on the score as published" in exam
