"""Importing and reading results reported by the HiPhO authors (never mixed with runs here).

``reported_import`` reads the whole CSV and validates every row (columns, exam, year, score)
before it writes anything; then replaces that (source, version)'s rows in one transaction,
keeping existing links to models evaluated here. A bad file names the line and field.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction

from catalog.models import ModelEntry
from hipho_exams.models import ReportedModel, ReportedScore
from rubrics.catalogue import CATALOGUE, medal_for
from rubrics.scoring import published

DEFAULT_SOURCE = "HiPhO leaderboard (scores reported by the HiPhO authors)"
DEFAULT_VERSION = "2025-09-16"
COLUMNS = ("model", "category", "exam", "year", "score")


class ReportedFileError(ValueError):
    """A reported-scores file that cannot be imported; the message names the line and field."""


@dataclass(frozen=True)
class ReportedRow:
    model: str
    category: str
    exam_id: str
    score: float


def exam_id_for(exam: str, year: str) -> str:
    """ "IPhO", "2025" -> "ipho-2025"; "F=MA" -> "fma-2025"."""
    return f"{exam.strip().lower().replace('=', '')}-{year.strip()}"


def read_reported(path: Path) -> list[ReportedRow]:
    if not path.is_file():
        raise ReportedFileError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReportedFileError(f"{path}: not UTF-8 text ({exc.reason})") from exc
    reader = csv.DictReader(text.splitlines())
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ReportedFileError(f"{path}: missing column(s) {missing}; expected {list(COLUMNS)}")
    rows: list[ReportedRow] = []
    seen: set[tuple[str, str]] = set()
    for line, rec in enumerate(reader, start=2):
        where = f"{path.name} line {line}"
        name = (rec.get("model") or "").strip()
        if not name:
            raise ReportedFileError(f"{where}: field 'model' is empty")
        year = (rec.get("year") or "").strip()
        if not year.isdigit():
            raise ReportedFileError(f"{where}: field 'year' must be a year, got {year!r}")
        exam_id = exam_id_for(rec.get("exam") or "", year)
        if exam_id not in CATALOGUE:
            raise ReportedFileError(
                f"{where}: field 'exam': unknown exam {rec.get('exam')!r} {year}"
            )
        try:
            score = float((rec.get("score") or "").strip())
        except ValueError:
            raise ReportedFileError(
                f"{where}: field 'score' must be a number, got {rec.get('score')!r}"
            ) from None
        full = CATALOGUE[exam_id].human_full
        if not math.isfinite(score) or score < 0 or score > full:
            raise ReportedFileError(
                f"{where}: field 'score' {score} is outside [0, {full:g}] for {exam_id}"
            )
        if (name, exam_id) in seen:
            raise ReportedFileError(f"{where}: a second score for {name!r} on {exam_id}")
        seen.add((name, exam_id))
        rows.append(ReportedRow(name, (rec.get("category") or "").strip(), exam_id, score))
    if not rows:
        raise ReportedFileError(f"{path}: no rows")
    return rows


@transaction.atomic
def reported_import(
    *, path: Path, source: str = DEFAULT_SOURCE, version: str = DEFAULT_VERSION
) -> int:
    """Replace the (source, version) reported scores with the file's; returns the row count."""
    rows = read_reported(path)  # everything validated before the first write
    links = dict(
        ReportedModel.objects.filter(source=source, version=version).values_list(
            "name", "linked_model_id"
        )
    )
    ReportedModel.objects.filter(source=source, version=version).delete()
    models: dict[str, ReportedModel] = {}
    for row in rows:
        if row.model not in models:
            models[row.model] = ReportedModel.objects.create(
                name=row.model,
                category=row.category,
                source=source,
                version=version,
                linked_model_id=links.get(row.model),
            )
    ReportedScore.objects.bulk_create(
        ReportedScore(reported_model=models[r.model], exam_id=r.exam_id, score=r.score)
        for r in rows
    )
    return len(rows)


def reported_link(
    *, name: str, model_slug: str, source: str = DEFAULT_SOURCE, version: str = DEFAULT_VERSION
) -> ReportedModel:
    reported = ReportedModel.objects.filter(name=name, source=source, version=version).first()
    if reported is None:
        raise ReportedFileError(f"no reported model {name!r} in {source} {version}")
    model = ModelEntry.objects.filter(slug=model_slug).first()
    if model is None:
        raise ReportedFileError(f"no model with slug {model_slug!r}")
    reported.linked_model = model
    reported.save(update_fields=["linked_model"])
    return reported


def reported_medal(exam_id: str, score: float) -> str | None:
    """The medal a reported score earns at the official cut-offs, on the score as published."""
    return medal_for(exam_id, published(score))


def reported_rows() -> list[dict[str, Any]]:
    """Each reported model with its scores per exam and medals (for the medal table)."""
    out = []
    for rm in ReportedModel.objects.prefetch_related("scores").select_related("linked_model"):
        scores = {s.exam_id: s.score for s in rm.scores.all()}
        out.append(
            {
                "reported": rm,
                "scores": scores,
                "medals": {e: reported_medal(e, v) for e, v in scores.items()},
            }
        )
    return out
