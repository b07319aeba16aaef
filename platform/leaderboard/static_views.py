"""Small non-page responses: the favicon, and the old plotly.js address.

plotly.js itself is a static file now (vendor/plotly/plotly.min.js, found in the installed plotly
package by podium.asset_finders), so WhiteNoise serves it hashed, gzip-compressed and cacheable.
"""

from __future__ import annotations

from pathlib import Path

from django.http import FileResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views.decorators.http import require_GET

FAVICON = Path(__file__).resolve().parents[2] / "static" / "favicon.svg"


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico on every page (the admin's too); answer instead of a 404."""
    response = FileResponse(FAVICON.open("rb"), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def plotly_js(request):
    """Pages and bookmarks made before plotly became a static file."""
    return HttpResponsePermanentRedirect(static("vendor/plotly/plotly.min.js"))
