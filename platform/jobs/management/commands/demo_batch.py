"""Submits the demo batch: every family's built-in baselines on that family's default benchmarks."""

import time

from django.core.management.base import BaseCommand, CommandError

from catalog.models import Benchmark, ModelEntry
from evaluators.registry import FAMILIES
from jobs.models import Job
from jobs.services import job_submit


class Command(BaseCommand):
    help = (
        "Submit one job per family with its built-in players on its default benchmarks, then wait."
    )

    def add_arguments(self, parser):
        parser.add_argument("--timeout", type=float, default=1800)
        parser.add_argument("--detach", action="store_true")

    def handle(self, *args, **opts):
        jobs = []
        for family, spec in FAMILIES.items():
            models = list(
                ModelEntry.objects.filter(
                    litellm_model__in=[f"builtin/{name}" for name in spec.demo_players]
                )
            )
            slugs = [b["slug"] for b in spec.demo_benchmarks]
            benchmarks = list(Benchmark.objects.filter(slug__in=slugs, active=True))
            if not models or not benchmarks:
                raise CommandError(
                    f"{family}: demo players or benchmarks missing; run seed_catalog"
                )
            job = job_submit(models=models, benchmarks=benchmarks, name=f"demo: {family} baselines")
            self.stdout.write(f"submitted job {job.pk} ({family}): {job.total_items} items")
            jobs.append(job.pk)
        if opts["detach"]:
            return
        deadline = time.monotonic() + opts["timeout"]
        tty = self.stdout.isatty()
        last = None
        while time.monotonic() < deadline:
            rows = list(
                Job.objects.filter(pk__in=jobs).values_list(
                    "done_items", "failed_items", "total_items", "status"
                )
            )
            ended = sum(d + f for d, f, _, _ in rows)
            total = sum(t for _, _, t, _ in rows)
            step = (
                1 if tty else max(total // 20, 1)
            )  # a log file gets ~20 lines, a terminal a live bar
            if last is None or ended - last >= step or (ended == total and ended != last):
                line = f"demo batch: {ended}/{total} items"
                self.stdout.write(("\r" + line) if tty else line, ending="" if tty else "\n")
                self.stdout.flush()
                last = ended
            if all(s in (Job.Status.DONE, Job.Status.CANCELLED) for *_, s in rows):
                if tty:
                    self.stdout.write("")
                failed = sum(f for _, f, _, _ in rows)
                self.stdout.write(
                    f"demo batch done: {total - failed} items graded, {failed} failed"
                )
                return
            time.sleep(1)
        raise CommandError(
            f"demo batch not finished after {opts['timeout']}s; see var/log/worker.log"
        )
