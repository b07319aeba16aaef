"""python manage.py regrade RUN [--answers-only]: grade a run's stored replies again, for a family
with a regrade hook (HiPhO)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from jobs.models import Run
from jobs.regrade import run_regrade


class Command(BaseCommand):
    help = (
        "Re-grade a run's stored replies with the current grader version (families with a "
        "regrade hook: HiPhO), without "
        "calling the model; the old grades stay in each item's details history."
    )

    def add_arguments(self, parser):
        parser.add_argument("run", type=int, help="run id")
        parser.add_argument(
            "--answers-only",
            action="store_true",
            help="do not call the judge; keep the stored step-level grades",
        )

    def handle(self, *args, **options):
        run = Run.objects.select_related("benchmark__judge").filter(pk=options["run"]).first()
        if run is None:
            raise CommandError(f"no run {options['run']}")
        try:
            result = run_regrade(run=run, use_judge=not options["answers_only"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        run.refresh_from_db()
        self.stdout.write(
            self.style.SUCCESS(
                f"run {run.pk}: re-graded {result['regraded']} items ({result['changed']} changed); "
                f"score {run.score}"
            )
        )
