"""The public page cache cannot be grown at will: keys are normalised (order and empty values
do not matter), only known, short parameters are cached, and the cache lives in another Redis
database than the broker's queues."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from leaderboard.page_cache import fingerprint
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def _page_keys() -> list[bytes]:
    """This test's cached Hanabi pages (the fingerprint of this test database is in the key,
    so other sessions sharing the Redis server do not count)."""
    client = cache._cache.get_client()
    return list(client.scan_iter(match=f"*lbpage:hanabi:{fingerprint()}:*", count=1000))


@pytest.fixture
def hanabi_page(redis_url):
    bench = f.benchmark("hanabi/a", "hanabi")
    f.run(f.model("m1", display_name="First"), bench, f.hanabi_metrics(10.0))
    return reverse("leaderboard:hanabi")


def test_junk_parameters_add_no_cache_keys(client, hanabi_page):
    for i in range(40):
        assert client.get(f"{hanabi_page}?junk{i}={i}").status_code == 200
        assert client.get(f"{hanabi_page}?sort={'x' * 200}{i}").status_code == 200
    assert _page_keys() == []


def test_equivalent_queries_share_one_key(client, hanabi_page):
    client.get(f"{hanabi_page}?sort=score&dir=desc")
    hit = client.get(f"{hanabi_page}?dir=desc&sort=score&players=")
    assert hit["X-Podium-Cache"] == "hit"
    assert len(_page_keys()) == 1


def test_the_cache_is_not_in_the_brokers_database(client, hanabi_page):
    client.get(hanabi_page)
    [key] = _page_keys()
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    cache_db = cache._cache.get_client().connection_pool.connection_kwargs.get("db", 0)
    assert broker.connection_pool.connection_kwargs.get("db", 0) != cache_db
    assert not broker.exists(key)
