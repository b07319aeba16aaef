"""The exam page shows the exam's own figures, read from the folder its benchmark names."""

import pytest
from django.urls import reverse

from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_exam_page_shows_and_serves_the_demo_exam_figure(client):
    from catalog.services import benchmarks_ensure

    bench = next(b for b in benchmarks_ensure("hipho") if b.config.get("exam") != "suite")
    exam_id = bench.config["exam"]
    f.run(f.model("m1"), bench, f.hipho_metrics(12.0, exam_id=exam_id))
    html = client.get(reverse("leaderboard:hipho_exam", args=[exam_id])).content.decode()
    url = reverse("leaderboard:hipho_figure", args=[exam_id, 2, 0])
    assert f'src="{url}"' in html
    image = client.get(url)
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert b"".join(image.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(reverse("leaderboard:hipho_figure", args=[exam_id, 2, 5])).status_code == 404
    assert client.get(reverse("leaderboard:hipho_figure", args=[exam_id, 99, 0])).status_code == 404
    assert client.get(reverse("leaderboard:hipho_figure", args=["nope", 0, 0])).status_code == 404
