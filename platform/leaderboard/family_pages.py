"""What every family's pages share: reading a family's leaderboard entries, grouping them by
model, the model cell and the chart layout. The pages themselves live in each family's app."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from catalog.models import ModelEntry
from leaderboard.models import LeaderboardEntry
from leaderboard.page_cache import fingerprint
from leaderboard.pages import model_url
from leaderboard.tables import Cell

TOP_ROWS = 50  # rows of a secondary table shown on a page (downloads carry all)
# The legend sits above the plot (a legend outside the plot pushes the margin it needs), so it
# never runs into rotated tick labels or an axis title below the plot; the title is the figure's
# HTML caption (pages.chart), so nothing plotly draws can cover it. Axes take the margin their
# tick labels need (automargin), so long model names are not cut off.
# No "template" here: plotly.py validates and copies a template on every figure (about 40 ms each);
# the page applies the same plotly_white look in the browser (pages.chart_template, charts.js).
LAYOUT = {
    "height": 400,
    "margin": {"l": 55, "r": 20, "t": 30, "b": 40},
    "font": {"size": 12},
    "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0},
    "xaxis": {"automargin": True},
    "yaxis": {"automargin": True},
}


@dataclass(frozen=True)
class EntryModel:
    id: int
    slug: str
    display_name: str


@dataclass(frozen=True)
class EntryRow:
    """A read-only LeaderboardEntry as the family pages use it: built from a values() row, about
    ten times cheaper than ORM instances (a family page reads every entry of the family)."""

    model_id: int
    benchmark_id: int
    part: str
    group: str
    label: str
    run_id: int
    score: float | None
    score_se: float | None
    score_lo: float | None
    score_hi: float | None
    summary: dict
    model: EntryModel


# the columns the family pages read (skipping timestamps and model settings halves the cost):
# EntryRow's own fields in order, then the model's
_ROW_FIELDS = tuple(f.name for f in fields(EntryRow) if f.name != "model")
_VALUES = (*_ROW_FIELDS, "model__slug", "model__display_name")


_ENTRIES: dict[str, tuple[str, list[EntryRow]]] = {}  # family -> (read-model fingerprint, rows)


def family_entries(family: str) -> list[EntryRow]:
    """Every entry of a family as plain rows, kept per process until the read model's fingerprint
    (the page cache's) changes: each filter, sort and page of a family page shares one read."""
    key = fingerprint()
    hit = _ENTRIES.get(family)
    if hit is not None and hit[0] == key:
        return hit[1]
    rows = _family_entries(family)
    _ENTRIES[family] = (key, rows)
    return rows


def _family_entries(family: str) -> list[EntryRow]:
    models: dict[int, EntryModel] = {}
    out = []
    for v in (
        LeaderboardEntry.objects.filter(family=family)
        .order_by("model__display_name", "id")
        .values_list(*_VALUES)
    ):
        n = len(_ROW_FIELDS)
        model = models.get(v[0]) or models.setdefault(v[0], EntryModel(v[0], v[n], v[n + 1]))
        out.append(EntryRow(*v[:n], model=model))  # type: ignore[misc]  # v[:n] is the row's fields
    return out


def entries_by_model(entries) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for e in entries:
        row = out.setdefault(e.model_id, {"model": e.model, "cells": {}})
        row["cells"][e.group] = e
    return out


def model_cell(model: ModelEntry) -> Cell:
    return Cell(model.display_name, href=model_url(model.slug))
