"""Shared helpers of the page views: rendering with downloads, number formatting, links."""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any
from urllib.parse import quote, urlencode

import plotly.io as pio
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from leaderboard.tables import Table, table_download

# Scripts only from this origin: model text can never run even if some escaping were missed.
# Plotly sets inline styles on the SVG it draws, hence style-src 'unsafe-inline'.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
PAGE_SIZE = 50
_VOLATILE = {"download", "format"}


def query_without(request: HttpRequest, drop: set[str]) -> str:
    pairs = [(k, v) for k, values in request.GET.lists() if k not in drop for v in values]
    return urlencode(pairs)


def render_page(
    request: HttpRequest, template: str, context: dict[str, Any], tables: list[Table] | tuple = ()
) -> HttpResponse:
    """Render a page, or one of its tables as CSV/JSON when ?download= asks for it."""
    download = table_download(request, list(tables))
    if download is not None:
        return download
    full = {
        **context,
        "tables": {t.name.replace("-", "_"): t for t in tables},
        "query": query_without(request, _VOLATILE),
        "sort_query": query_without(request, _VOLATILE | {"sort", "dir", "page"}),
        "page_query": query_without(request, _VOLATILE | {"page"}),
    }
    response = render(request, template, full)
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


def paginate(request: HttpRequest, items, per_page: int = PAGE_SIZE) -> Page:
    """One page of rows; a table download gets every row."""
    if request.GET.get("download"):
        count = (
            items.count() if hasattr(items, "count") and not isinstance(items, list) else len(items)
        )
        return Paginator(items, max(count, 1)).get_page(1)
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def fmt(value: Any, digits: int = 1) -> str:
    number = finite(value)
    if number is None:
        return "—"
    return f"{number:,.{digits}f}"


def pm(score: Any, se: Any, digits: int = 1) -> str:
    if finite(score) is None:
        return "—"
    if finite(se) is None:
        return fmt(score, digits)
    return f"{fmt(score, digits)} ± {fmt(se, digits)}"


def score_text(score: Any, se: Any, censored: Any = None, ci: Any = None, digits: int = 2) -> str:
    """``pm(score, se)``, except an Elo known only as a bound (every rated game lost or won,
    Run.metrics ``elo_censored`` and ``elo_ci95``): "< hi" or "> lo", never a bare number."""
    if censored in ("below", "above") and isinstance(ci, (list, tuple)) and len(ci) == 2:
        bound = finite(ci[1] if censored == "below" else ci[0])
        if bound is not None:
            return f"{'<' if censored == 'below' else '>'} {fmt(bound, 0)}"
    return pm(score, se, digits)


def interval_text(lo: Any, hi: Any, se: Any = 0.0, digits: int = 2) -> str:
    """ "[lo, hi]", or "one sample" where a zero-width interval only means nothing was repeated
    (no SE either: one sample per problem), never a measured certainty."""
    if finite(lo) is None or finite(hi) is None:
        return "—"
    if finite(se) is None and abs(float(hi) - float(lo)) < 1e-9:
        return "one sample"
    return f"[{fmt(lo, digits)}, {fmt(hi, digits)}]"


def pct(rate: Any, digits: int = 1) -> str:
    number = finite(rate)
    return "—" if number is None else f"{100.0 * number:.{digits}f}%"


def money(value: Any) -> str:
    number = finite(value)
    return "—" if number is None else f"${number:,.4f}"


def outcome(status: str, done: int, failed: int, total: int) -> str:
    """What a job or run shows: its status, except that an ended one whose items failed says so.
    "done" only when no item failed; "failed" when none succeeded; "partial" in between."""
    if status != "done" or not failed:
        return status
    return "failed" if done == 0 else "partial"


OUTCOME_TITLES = {
    "done": "every item ended and none failed",
    "partial": "ended; some items failed (resume re-runs them)",
    "failed": "ended; every item failed",
    "cancelled": "cancelled; resume re-runs the cancelled and failed items",
    "running": "items are being evaluated",
    "pending": "waiting for a worker",
}


_MARK = "987654321"  # stands in for the id while reverse() runs once per process


@functools.cache
def _url_pattern(name: str) -> tuple[str, str]:
    head, _, tail = reverse(name, args=[_MARK]).partition(_MARK)
    return head, tail


def id_url(name: str, pk: int) -> str:
    """reverse(name, args=[pk]) for a URL whose one argument is an id, from the cached pattern."""
    head, tail = _url_pattern(name)
    return f"{head}{int(pk)}{tail}"


def run_url(run_id: int | None) -> str:
    """reverse('leaderboard:run') without a resolver walk per cell (tables link thousands)."""
    if not run_id:
        return ""
    head, tail = _url_pattern("leaderboard:run")
    return f"{head}{int(run_id)}{tail}"


def model_url(slug: str) -> str:
    head, tail = _url_pattern("leaderboard:model")
    return f"{head}{quote(str(slug), safe='')}{tail}"


# Figures are built without a template (see chart_template), so none is applied by default either.
pio.templates.default = "none"


@functools.cache
def chart_template() -> dict[str, Any]:
    """plotly_white's layout, computed once per process and sent once per chart page; charts.js
    sets it on every figure of the page (the figures themselves stay small and fast to build)."""
    from plotly.utils import PlotlyJSONEncoder

    return json.loads(
        json.dumps(pio.templates["plotly_white"].to_plotly_json(), cls=PlotlyJSONEncoder)
    )


def chart(fig, chart_id: str) -> dict[str, Any]:
    """A plotly figure as the page embeds it: JSON in a <script type="application/json"> block
    (Django's json_script escapes <, > and &), drawn by static/js/charts.js.

    Plotly renders a subset of HTML inside text (<a href>, <span style>, ...), so a display
    name or exam id holding `<a href=…>` became a live link in the chart. Every string is
    escaped here, except the few attribute-free formatting tags our own labels use."""
    data = json.loads(fig.to_json())
    layout = data.setdefault("layout", {})
    # The title is drawn as the figure's HTML caption, not by plotly: it wraps on a phone, the
    # mode bar cannot cover it, and a legend that wraps to several rows cannot run into it (a
    # legend above the plot pushes plotly's top margin; a plotly title sits in a fixed one).
    title = layout.pop("title", None)
    title = title.get("text") if isinstance(title, dict) else title
    return {
        "id": chart_id,
        "json_id": f"{chart_id}-data",
        "title": str(title or ""),
        "data": plotly_safe(data),
    }


# Plotly decodes &lt; back to a literal "<" when it draws text, so escaped names read the same.
_PLOTLY_OWN_TAGS = re.compile(r"</?(?:br|b|i|sub|sup|extra)\s*/?>", re.IGNORECASE)


def _plotly_text(text: str) -> str:
    if "<" not in text and ">" not in text:
        return text
    out, at = [], 0
    for tag in _PLOTLY_OWN_TAGS.finditer(text):
        out.append(text[at : tag.start()].replace("<", "&lt;").replace(">", "&gt;"))
        out.append(tag.group(0))
        at = tag.end()
    out.append(text[at:].replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


def plotly_safe(value: Any) -> Any:
    """A figure's JSON with every string made inert for plotly's text renderer."""
    if isinstance(value, str):
        return _plotly_text(value)
    if isinstance(value, list):
        return [plotly_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: plotly_safe(v) for k, v in value.items()}
    return value
