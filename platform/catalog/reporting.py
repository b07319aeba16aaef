"""Exception reports (Django's debug page and the error mails to ADMINS) without secrets.

Django's default filter hides settings and request.META entries whose NAME looks secret (KEY,
TOKEN, PASS, ...). A model names the environment variable that holds its API key, and that name
need not look secret (e.g. ``PROVIDER_CRED``); runserver and several WSGI servers copy the whole
process environment into request.META, so such a key would be printed in every report. Process
environment variables have no place in a request's report: only the request's own variables
(HTTP headers, CGI and WSGI fields) are shown.
"""

from __future__ import annotations

import re

from django.views.debug import SafeExceptionReporterFilter

# scheme://user:password@ — DATABASE_URL, REDIS_URL, the broker and cache URLs carry passwords
# under names Django does not recognise as secret.
_URL_CREDENTIALS = re.compile(
    r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:/@\s]*):(?P<password>[^@\s/]*)@"
)

_REQUEST_PREFIXES = ("HTTP_", "CONTENT_", "SERVER_", "REMOTE_", "wsgi.", "gunicorn.", "uwsgi.")
_REQUEST_NAMES = frozenset(
    {
        "REQUEST_METHOD",
        "PATH_INFO",
        "QUERY_STRING",
        "SCRIPT_NAME",
        "REQUEST_URI",
        "RAW_URI",
        "GATEWAY_INTERFACE",
        "CSRF_COOKIE",
        "CSRF_COOKIE_NEEDS_UPDATE",
    }
)


def is_request_variable(name: str) -> bool:
    return name in _REQUEST_NAMES or name.startswith(_REQUEST_PREFIXES)


class EnvironmentHidingFilter(SafeExceptionReporterFilter):
    def cleanse_setting(self, key, value):
        """Django's cleansing (by name, recursing into dicts and lists through this method),
        then the password of any URL-shaped string is replaced."""
        value = super().cleanse_setting(key, value)
        if isinstance(value, str) and _URL_CREDENTIALS.search(value):
            return _URL_CREDENTIALS.sub(lambda m: f"{m['head']}:{self.cleansed_substitute}@", value)
        return value

    def get_safe_request_meta(self, request):
        meta = super().get_safe_request_meta(request)
        return {
            name: value if is_request_variable(name) else self.cleansed_substitute
            for name, value in meta.items()
        }
