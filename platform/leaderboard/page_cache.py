"""Whole-page cache for the public leaderboard pages.

A key holds a fingerprint of the read model (latest update time and row counts of the
leaderboard entries, models and benchmarks, and of the reported HiPhO scores), so a refreshed run, a new model or a renamed one
changes the key at once: nothing needs to remember to invalidate. Only anonymous GETs are
cached (staff see an Admin link and messages). When Redis is unreachable the page is simply
rendered.
"""

from __future__ import annotations

import functools
import hashlib
import logging

from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
TTL_SECONDS = 300
_KEPT_HEADERS = ("Content-Disposition", "Content-Security-Policy")
_FINGERPRINT_SQL = """
SELECT (SELECT max(updated_at) FROM leaderboard_leaderboardentry),
       (SELECT count(*) FROM leaderboard_leaderboardentry),
       (SELECT max(updated_at) FROM catalog_modelentry),
       (SELECT count(*) FROM catalog_modelentry),
       (SELECT max(id) FROM catalog_benchmark),
       (SELECT count(*) FROM catalog_benchmark),
       (SELECT max(imported_at) FROM hipho_exams_reportedmodel),
       (SELECT count(*) FROM hipho_exams_reportedscore)
"""


def fingerprint() -> str:
    with connection.cursor() as cursor:
        cursor.execute(_FINGERPRINT_SQL)
        row = cursor.fetchone()
    return hashlib.sha1(repr(row).encode()).hexdigest()[:16]


# Query parameters the cached pages read, with bounded values. A request with any other
# parameter, a free-text search (q) or an over-long value is rendered uncached: keyed on the raw
# query string, anyone could fill the cache with distinct keys (?x=1, ?x=2, ...).
CACHEABLE_PARAMS = frozenset(
    {
        "org",
        "open",
        "modality",
        "size_min",
        "size_max",
        "family",
        "sort",
        "dir",
        "page",
        "per_page",
        "state",
        "status",
        "task",
        "setting",
        "players",
        "group",
        "all",
        "download",
        "format",
        "runs",
        "i",
    }
)
MAX_PARAM_CHARS = 64
MAX_PARAMS = 12


def cache_key_query(request) -> str | None:
    """The normalised query (sorted, empty values dropped) a page is cached under, or None
    when this request must not be cached."""
    pairs = []
    for name, values in request.GET.lists():
        if name not in CACHEABLE_PARAMS:
            return None
        for value in values:
            if len(value) > MAX_PARAM_CHARS:
                return None
            if value != "":
                pairs.append((name, value))
    if len(pairs) > MAX_PARAMS:
        return None
    return "&".join(f"{k}={v}" for k, v in sorted(pairs))


def cached_page(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "GET" or request.user.is_authenticated:
            return view(request, *args, **kwargs)
        query = cache_key_query(request)
        if query is None:
            return view(request, *args, **kwargs)
        path = hashlib.sha1(f"{request.path}?{query}".encode()).hexdigest()
        key = f"lbpage:{view.__name__}:{fingerprint()}:{path}"
        try:
            hit = cache.get(key)
        except (RedisError, OSError) as exc:  # Redis down: serve uncached rather than fail
            log.warning("page cache unavailable: %s", exc)
            return view(request, *args, **kwargs)
        if hit is not None:
            content, content_type, headers = hit
            response = HttpResponse(content, content_type=content_type)
            for name, value in headers.items():
                response[name] = value
            response["X-Podium-Cache"] = "hit"
            return response
        response = view(request, *args, **kwargs)
        if response.status_code == 200 and not response.streaming:
            headers = {h: response[h] for h in _KEPT_HEADERS if h in response}
            try:
                cache.set(key, (response.content, response["Content-Type"], headers), TTL_SECONDS)
            except (RedisError, OSError) as exc:
                log.warning("page cache unavailable: %s", exc)
        return response

    return wrapper
