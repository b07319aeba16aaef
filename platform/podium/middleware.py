"""Input no database can hold is refused at the door with a 400 naming where it was.

PostgreSQL rejects NUL characters in text (and a lone UTF-16 surrogate cannot be encoded at
all), so `/?q=%00` or `/hipho/exams/%00/` reached a query and failed there as a 500.
"""

from __future__ import annotations

import re

from django.http import HttpResponseBadRequest, JsonResponse

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> bool:
    return bool(_UNSTORABLE.search(text))


def _problem(request) -> str | None:
    if unstorable(request.path_info):
        return "the URL path contains a NUL byte or an invalid character"
    for name, values in request.GET.lists():
        if unstorable(name):
            return "a query parameter name contains a NUL byte or an invalid character"
        if any(unstorable(v) for v in values):
            return f"query parameter {name!r} contains a NUL byte or an invalid character"
    return None


class RejectUnstorableInput:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = _problem(request)
        if problem is None:
            return self.get_response(request)
        if request.path_info.startswith("/api/"):
            return JsonResponse({"error": {"code": "bad_request", "message": problem}}, status=400)
        return HttpResponseBadRequest(f"Bad request: {problem}.", content_type="text/plain")
