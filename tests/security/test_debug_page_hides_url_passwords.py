"""The DEBUG page (and error mails) list the settings; DATABASE_URL, REDIS_URL and the broker
and cache URLs carry passwords under names Django does not treat as secret."""

from __future__ import annotations

import sys
import uuid

from django.test import RequestFactory
from django.views.debug import ExceptionReporter


class _Secrets:
    """Held out of sight: the report shows the test's source lines and local variables."""

    def __init__(self) -> None:
        self.values = [f"pw{uuid.uuid4().hex[:12]}" for _ in range(3)]


def test_passwords_inside_url_settings_are_hidden(settings):
    box = _Secrets()
    settings.DATABASE_URL = f"postgres://podium:{box.values[0]}@db.internal:5432/podium"
    settings.CELERY_BROKER_URL = f"redis://:{box.values[1]}@redis.internal:6379/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": [f"rediss://c:{box.values[2]}@cache.internal:6380/1"],
        }
    }
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        reporter = ExceptionReporter(RequestFactory().get("/"), *sys.exc_info())
        html, text = reporter.get_traceback_html(), reporter.get_traceback_text()
    for secret in box.values:
        assert secret not in html and secret not in text, secret
    assert "db.internal:5432/podium" in html  # the rest of the URL stays useful
