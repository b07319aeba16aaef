"""manage.py export_hanabi RUN_ID [--kind logs|rewards] [--out file.jsonl]: a Hanabi run's
games as JSONL (HanabiLogs-like move logs, or HanabiRewards-like candidate utilities)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from evaluators.hanabi import write_jsonl
from hanabi_games.selectors import run_trajectories
from jobs.models import Run


class Command(BaseCommand):
    help = (
        "Write every finished game of a Hanabi run as one self-contained JSON line: "
        "move logs (default) or candidate utilities (--kind rewards, needs regret)."
    )

    def add_arguments(self, parser):
        parser.add_argument("run", type=int, help="Run id")
        parser.add_argument("--out", help="output path (default: standard output)")
        parser.add_argument(
            "--kind",
            choices=("logs", "rewards"),
            default="logs",
            help="logs: every move as seen; rewards: every candidate's utility",
        )

    def handle(self, *args, run: int, out: str | None = None, kind: str = "logs", **options):
        try:
            obj = Run.objects.select_related("benchmark", "model").get(pk=run)
        except Run.DoesNotExist:
            raise CommandError(f"no run with id {run}") from None
        if obj.benchmark.family != "hanabi":
            raise CommandError(f"run {run} is a {obj.benchmark.family} run, not hanabi")
        if out:
            tmp = f"{out}.part"
            with open(tmp, "w", encoding="utf-8") as fh:
                n = write_jsonl(run_trajectories(run=obj, kind=kind), fh)
            import os

            os.replace(tmp, out)  # nothing half-written under the final name
        else:
            n = write_jsonl(run_trajectories(run=obj, kind=kind), sys.stdout)
        self.stderr.write(f"wrote {n} games of run {run}")
