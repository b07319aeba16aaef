"""python manage.py evaluate --model M [--model M2] --benchmark B [--benchmark 'hipho/*'] [--samples N]"""

import sys
import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from jobs.models import Job
from jobs.selectors import benchmarks_by_patterns, job_progress, models_by_names
from jobs.services import job_submit


def _bar(done: int, failed: int, total: int, width: int = 40) -> str:
    ended = done + failed
    filled = int(width * ended / total) if total else width
    return "[" + "#" * filled + "." * (width - filled) + "]"


class Command(BaseCommand):
    help = "Submit an evaluation job and follow its progress until it ends (or --detach)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--model",
            action="append",
            required=True,
            help="model slug or litellm model string; repeatable",
        )
        parser.add_argument(
            "--benchmark",
            action="append",
            required=True,
            help="benchmark slug or pattern such as 'hanabi/*'; repeatable",
        )
        parser.add_argument(
            "--samples",
            type=int,
            default=None,
            help="samples per problem / seeds per configuration",
        )
        parser.add_argument("--name", default="")
        parser.add_argument("--detach", action="store_true", help="return as soon as it is queued")
        parser.add_argument("--timeout", type=float, default=None, help="stop following after N s")

    def handle(self, *args, **opts):
        try:
            models = models_by_names(opts["model"])
            benchmarks = benchmarks_by_patterns(opts["benchmark"])
            job = job_submit(
                models=models, benchmarks=benchmarks, samples=opts["samples"], name=opts["name"]
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(
            f"job {job.pk}: {len(models)} model(s) x {len(benchmarks)} benchmark(s), "
            f"{job.total_items} items"
        )
        if opts["detach"]:
            return
        started = time.monotonic()
        tty = sys.stdout.isatty()
        last = None
        while True:
            p = job_progress(job_id=job.pk)
            line = (
                f"{_bar(p['done'], p['failed'], p['total'])} {p['done'] + p['failed']}/{p['total']}"
                f" done={p['done']} failed={p['failed']} running={p['running']}"
            )
            if p["rate_per_s"]:
                line += f" {p['rate_per_s']:.2f} items/s"
            if p["eta_s"] is not None:
                line += f" eta {p['eta_s']:.0f}s"
            if tty:
                self.stdout.write("\r" + line, ending="")
                self.stdout.flush()
            elif line != last:
                self.stdout.write(line)
            last = line
            if p["status"] in (Job.Status.DONE, Job.Status.CANCELLED):
                break
            if opts["timeout"] and time.monotonic() - started > opts["timeout"]:
                raise CommandError(f"job {job.pk} still {p['status']} after {opts['timeout']}s")
            time.sleep(0.5)
        if tty:
            self.stdout.write("")
        job.refresh_from_db()
        self.stdout.write(
            f"job {job.pk} {job.status}: {job.done_items} done, {job.failed_items} failed"
        )
        for run in job.runs.select_related("model", "benchmark"):
            se = f" ± {run.score_se:.3g}" if run.score_se is not None else ""
            score = f"{run.score:.4g}{se}" if run.score is not None else "—"
            self.stdout.write(f"  {run.model.slug:30s} {run.benchmark.slug:30s} {score}")
