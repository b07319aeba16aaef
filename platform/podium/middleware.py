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


# The admin renders staff-entered and model-produced text (names, errors, transcripts in
# inlines): scripts from this origin only, as on the public pages. Django's admin needs no
# inline script; its widgets set inline styles, hence style-src 'unsafe-inline'.
ADMIN_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


class AdminContentSecurityPolicy:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path_info.startswith("/admin/") and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = ADMIN_CONTENT_SECURITY_POLICY
        return response
