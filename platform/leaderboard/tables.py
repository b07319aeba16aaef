"""Tables that render as HTML and download as CSV and JSON from the same rows.

A view builds ``Table`` objects; the generic template ``leaderboard/_table.html`` draws them and
``table_download`` turns one into a CSV or JSON response, so every table on the site can be
downloaded without per-page code.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpResponse, JsonResponse

# A spreadsheet treats a cell starting with these as a formula (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: Any) -> Any:
    """Prefix text cells that a spreadsheet would run as a formula with a single quote."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


@dataclass
class Cell:
    value: Any  # the raw value: what CSV and JSON carry
    text: str | None = None  # what the page shows (defaults to the value)
    href: str = ""
    badge: str = ""  # css modifier: gold / silver / bronze / ok / bad …
    title: str = ""
    sub: str = ""  # a smaller second line (e.g. ± SE or a rank interval)
    when: str = ""  # ISO timestamp: drawn as <time>, shown in the reader's local time by site.js

    @property
    def display(self) -> str:
        if self.text is not None:
            return self.text
        if self.value is None:
            return "—"
        return str(self.value)


def when_cell(moment) -> Cell:
    """A timestamp cell: ISO in downloads and in the tooltip, readable UTC until site.js localises it."""
    if moment is None:
        return Cell(None)
    iso = moment.isoformat(timespec="seconds")
    return Cell(iso, moment.strftime("%Y-%m-%d %H:%M UTC"), title=iso, when=iso)


@dataclass
class Column:
    key: str
    label: str
    numeric: bool = False
    sort: str = ""  # the ?sort= value this header links to ("" = not sortable)
    title: str = ""
    hidden: bool = False  # in the downloads only (e.g. the SE next to a score)
    optional: bool = False  # hidden on narrow screens (phones) to leave room for the numbers
    # downloads write a list value (an interval, W/D/L) as one column per part, e.g. ("low", "high")
    split: tuple[str, ...] = ()

    def download_columns(self) -> list[tuple[str, str]]:
        if not self.split:
            return [(self.key, self.label)]
        return [(f"{self.key}_{part.lower()}", f"{self.label} ({part})") for part in self.split]


def column_group(
    main: Column, *companions: tuple[str, str], sep: str = "__", prefix: str = ""
) -> list[Column]:
    """A shown column and its download-only companions (its SE, rank, ...), each ``(suffix,
    name)`` keyed ``<main.key><sep><suffix>`` and labelled ``<prefix or main.label> <name>``."""
    return [main] + [
        Column(f"{main.key}{sep}{suffix}", f"{prefix or main.label} {name}", hidden=True)
        for suffix, name in companions
    ]


@dataclass
class Table:
    name: str  # unique on the page; ?download=<name>
    title: str
    columns: list[Column]
    rows: list[dict[str, Cell]] = field(default_factory=list)
    caption: str = ""
    empty: str = "Nothing here yet."
    row_css: list[str] = field(default_factory=list)
    row_keys: list[str] = field(
        default_factory=list
    )  # data-key of each row (live updates find rows by it)
    file: str = ""  # download file name without extension: the table and the id of what it shows

    @property
    def file_name(self) -> str:
        return "".join(
            ch if ch.isalnum() or ch in "-_." else "-" for ch in (self.file or self.name)
        )

    def add(self, _css: str = "", _key: str = "", **cells: Any) -> None:
        self.rows.append({k: v if isinstance(v, Cell) else Cell(v) for k, v in cells.items()})
        self.row_css.append(_css)
        self.row_keys.append(_key)

    @property
    def visible_columns(self) -> list[Column]:
        return [c for c in self.columns if not c.hidden]

    @property
    def html_rows(self) -> list[dict[str, Any]]:
        visible = self.visible_columns
        return [
            {"css": css, "cells": [{"cell": row.get(c.key), "numeric": c.numeric} for c in visible]}
            for row, css in zip(self.rows, self.row_css)
        ]

    def download_columns(self) -> list[tuple[str, str]]:
        return [pair for col in self.columns for pair in col.download_columns()]

    def records(self) -> list[dict[str, Any]]:
        out = []
        for row in self.rows:
            record = {}
            for col in self.columns:
                cell = row.get(col.key)
                value = cell.value if cell is not None else None
                if col.split:
                    parts = (
                        list(value)
                        if isinstance(value, (list, tuple)) and len(value) == len(col.split)
                        else [None] * len(col.split)
                    )
                    for (key, _), part in zip(col.download_columns(), parts):
                        record[key] = part
                else:
                    record[col.key] = value
            out.append(record)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return value


def table_csv(table: Table) -> HttpResponse:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    columns = table.download_columns()
    writer.writerow([csv_safe(label) for _, label in columns])
    for record in table.records():
        writer.writerow([csv_safe(_plain(record[key])) for key, _ in columns])
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.file_name}.csv"'
    return response


def table_json(table: Table) -> JsonResponse:
    payload = {
        "table": table.name,
        "title": table.title,
        "columns": [{"key": key, "label": label} for key, label in table.download_columns()],
        "rows": table.records(),
    }
    response = JsonResponse(payload, json_dumps_params={"allow_nan": False}, safe=True)
    response["Content-Disposition"] = f'attachment; filename="{table.file_name}.json"'
    return response


def table_download(request, tables: list[Table]) -> HttpResponse | None:
    """The download response when the request asks for one (?download=<name>&format=csv|json)."""
    name = request.GET.get("download")
    if not name:
        return None
    fmt = request.GET.get("format", "csv")
    for table in tables:
        if table.name == name:
            if fmt == "json":
                return table_json(table)
            if fmt == "csv":
                return table_csv(table)
            return HttpResponse("format must be csv or json", status=400, content_type="text/plain")
    return HttpResponse("no such table on this page", status=404, content_type="text/plain")
