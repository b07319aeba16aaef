"""plotly.js served straight from the installed plotly package (no CDN, no 4.8 MB file in git)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import plotly
from django.http import FileResponse, Http404, HttpResponseNotModified
from django.views.decorators.http import require_GET

PLOTLY_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


@cache
def _etag() -> str:
    stat = PLOTLY_JS.stat()
    return f'"plotly-{plotly.__version__}-{stat.st_size}-{int(stat.st_mtime)}"'


FAVICON = Path(__file__).resolve().parents[2] / "static" / "favicon.svg"


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico on every page (the admin's too); answer instead of a 404."""
    response = FileResponse(FAVICON.open("rb"), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def plotly_js(request):
    if not PLOTLY_JS.exists():
        raise Http404("plotly.min.js is missing from the plotly package")
    etag = _etag()
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified()
    response = FileResponse(PLOTLY_JS.open("rb"), content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=86400"
    return response
