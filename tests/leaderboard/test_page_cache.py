"""Public leaderboard pages are cached, and a refreshed run shows at once."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_a_second_anonymous_view_is_served_from_the_cache(client, redis_url):
    m = f.model("m1", display_name="First Name")
    bench = f.benchmark("hanabi/a", "hanabi")
    f.run(m, bench, f.hanabi_metrics(10.0))
    url = reverse("leaderboard:hanabi")
    first = client.get(url)
    assert "X-Podium-Cache" not in first
    second = client.get(url)
    assert second["X-Podium-Cache"] == "hit" and second.content == first.content
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]
    # a newly aggregated run changes the read model, hence the key: the page is fresh at once
    f.run(m, bench, f.hanabi_metrics(20.0))
    third = client.get(url)
    assert "X-Podium-Cache" not in third and "20.00 ± 0.50" in third.content.decode()
    # so does a renamed model, which no run refresh announces
    m.display_name = "Second Name"
    m.save()
    assert "Second Name" in client.get(url).content.decode()


def test_signed_in_users_get_fresh_pages(client, redis_url):
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    url = reverse("leaderboard:home")
    client.get(url)
    response = client.get(url)
    assert "X-Podium-Cache" not in response and "Admin" in response.content.decode()
