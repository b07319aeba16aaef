"""python manage.py import_reported [--path CSV] [--source TEXT] [--data-version TEXT] [--link NAME=SLUG ...]"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from hipho_exams.reported import (
    DEFAULT_SOURCE,
    DEFAULT_VERSION,
    ReportedFileError,
    reported_import,
    reported_link,
)


def _default_path() -> Path:
    # PODIUM_SHARED_DATA (README: configuration), else <repo>/../shared/data
    root = Path(settings.BASE_DIR) if hasattr(settings, "BASE_DIR") else Path.cwd()
    shared = Path(os.environ.get("PODIUM_SHARED_DATA") or root / ".." / "shared" / "data")
    return shared / "published" / "hipho_reported_scores.csv"


class Command(BaseCommand):
    help = (
        "Import the exam scores the HiPhO authors report (a 'reported' kind of result, shown "
        "apart from runs made here); all or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--path",
            help="the CSV (model,category,exam,year,score); default "
            "<shared data>/published/hipho_reported_scores.csv",
        )
        parser.add_argument("--source", default=DEFAULT_SOURCE)
        parser.add_argument(
            "--data-version",
            dest="data_version",
            default=DEFAULT_VERSION,
            help="the source's data version",
        )
        parser.add_argument(
            "--link",
            action="append",
            default=[],
            metavar="NAME=SLUG",
            help="link a reported model to a model evaluated here (repeatable)",
        )

    def handle(self, *args, **options):
        path = Path(options["path"]) if options["path"] else _default_path()
        try:
            n = reported_import(
                path=path, source=options["source"], version=options["data_version"]
            )
            for pair in options["link"]:
                name, sep, slug = pair.partition("=")
                if not sep:
                    raise ReportedFileError(f"--link {pair!r}: expected NAME=SLUG")
                reported_link(
                    name=name,
                    model_slug=slug,
                    source=options["source"],
                    version=options["data_version"],
                )
        except ReportedFileError as exc:
            raise CommandError(f"nothing imported: {exc}") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {n} reported scores ({options['source']}, version {options['data_version']})"
            )
        )
