"""python manage.py import_hipho --path DIR | --hf [--cache-dir DIR] [--judge SLUG]"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from catalog.models import ModelEntry
from hipho_exams.services import PROTOCOL_SAMPLES, hipho_import
from rubrics.errors import ExamFormatError, ExamSourceError


class Command(BaseCommand):
    help = "Import HiPhO exams as benchmarks (one per exam plus hipho/suite); all or nothing."

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument(
            "--path", help="folder of <Olympiad>_<year>.json files (+ image_question/)"
        )
        source.add_argument(
            "--hf", action="store_true", help="the SciYu/HiPhO dataset on Hugging Face"
        )
        parser.add_argument(
            "--cache-dir", default="var/hf-cache", help="local Hugging Face cache (with --hf)"
        )
        parser.add_argument(
            "--offline", action="store_true", help="use the Hugging Face cache only"
        )
        parser.add_argument("--judge", help="slug of the model that grades marking schemes")
        parser.add_argument(
            "--samples",
            type=int,
            default=PROTOCOL_SAMPLES,
            help=f"default samples per problem (published protocol: {PROTOCOL_SAMPLES})",
        )

    def handle(self, *args, **options):
        cap = settings.PODIUM_MAX_SAMPLES
        if not 1 <= options["samples"] <= cap:
            raise CommandError(
                f"--samples must be from 1 to {cap} (PODIUM_MAX_SAMPLES), got {options['samples']}"
            )
        judge = None
        if options["judge"]:
            judge = ModelEntry.objects.filter(slug=options["judge"]).first()
            if judge is None:
                raise CommandError(f"no model with slug {options['judge']!r}")
        try:
            benchmarks = hipho_import(
                path=options["path"],
                hf=options["hf"],
                cache_dir=options["cache_dir"],
                judge=judge,
                samples=options["samples"],
                offline=options["offline"],
            )
        except (ExamFormatError, ExamSourceError, ValueError) as exc:
            raise CommandError(f"nothing imported: {exc}") from exc
        for b in benchmarks:
            self.stdout.write(f"{b.slug}\t{b.name}\tversion {b.version}")
        self.stdout.write(self.style.SUCCESS(f"imported {len(benchmarks)} HiPhO benchmarks"))
