"""Reads of the job engine."""

from __future__ import annotations

from fnmatch import fnmatchcase

from django.core.exceptions import ValidationError

from catalog.models import Benchmark, ModelEntry
from jobs.models import ItemResult, Job


def models_by_names(names: list[str]) -> list[ModelEntry]:
    """Each name is a slug or a litellm model string; unknown names are an error naming them."""
    found, missing = [], []
    for name in names:
        entry = (
            ModelEntry.objects.filter(slug=name).first()
            or ModelEntry.objects.filter(litellm_model=name).first()
        )
        (found.append(entry) if entry else missing.append(name))
    if missing:
        raise ValidationError(f"unknown model(s): {', '.join(missing)} (register them first)")
    return found


def benchmarks_by_patterns(patterns: list[str]) -> list[Benchmark]:
    """Slugs, or shell patterns such as 'hipho/*'. A pattern matching nothing is an error."""
    all_slugs = list(Benchmark.objects.filter(active=True).values_list("slug", flat=True))
    chosen: list[str] = []
    for pattern in patterns:
        matches = [s for s in all_slugs if fnmatchcase(s, pattern)]
        if not matches:
            raise ValidationError(f"no active benchmark matches {pattern!r}")
        chosen.extend(m for m in matches if m not in chosen)
    by_slug = Benchmark.objects.in_bulk(chosen, field_name="slug")
    return [by_slug[s] for s in chosen]


def job_progress(*, job_id: int, job: Job | None = None) -> dict:
    job = job if job is not None else Job.objects.get(pk=job_id)
    # An ended job has nothing running: skip the count over its (possibly millions of) items.
    live = job.status in (Job.Status.PENDING, Job.Status.RUNNING)
    running = (
        ItemResult.objects.filter(run__job_id=job_id, state=ItemResult.State.RUNNING).count()
        if live
        else 0
    )
    elapsed = None
    if job.started_at:
        end = job.finished_at
        from django.utils import timezone

        elapsed = ((end or timezone.now()) - job.started_at).total_seconds()
    rate = (job.ended_items / elapsed) if elapsed and job.ended_items else None
    remaining = job.total_items - job.ended_items
    eta = (remaining / rate) if rate and job.status == Job.Status.RUNNING else None
    return {
        "id": job.pk,
        "status": job.status,
        "total": job.total_items,
        "done": job.done_items,
        "failed": job.failed_items,
        "running": running,
        "elapsed_s": elapsed,
        "rate_per_s": rate,
        "eta_s": eta,
    }
