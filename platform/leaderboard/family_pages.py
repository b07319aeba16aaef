"""What every family's pages share: reading a family's leaderboard entries, grouping them by
model, the model cell and the chart layout. The pages themselves live in each family's app."""

from __future__ import annotations

from typing import Any

from catalog.models import ModelEntry
from leaderboard.models import LeaderboardEntry
from leaderboard.pages import model_url
from leaderboard.tables import Cell

TOP_ROWS = 50  # rows of a secondary table shown on a page (downloads carry all)
# The legend sits above the plot, under the title (the top margin holds both), so it never runs
# into rotated tick labels or an axis title below the plot.
LAYOUT = {"template": "plotly_white", "height": 400, "margin": {"l": 55, "r": 20, "t": 95, "b": 70},
          "font": {"size": 12},
          "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0}}

# the columns the family pages read: skipping timestamps and model settings halves the cost
ENTRY_FIELDS = ("model_id", "benchmark_id", "part", "group", "label", "run_id", "score", "score_se",
                "score_lo", "score_hi", "summary", "model__slug", "model__display_name")


def family_entries(family: str):
    return (LeaderboardEntry.objects.filter(family=family).select_related("model").only(*ENTRY_FIELDS)
            .order_by("model__display_name"))


def entries_by_model(entries) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for e in entries:
        row = out.setdefault(e.model_id, {"model": e.model, "cells": {}})
        row["cells"][e.group] = e
    return out


def model_cell(model: ModelEntry) -> Cell:
    return Cell(model.display_name, href=model_url(model.slug))
