"""Queue, job page with live progress, and the staff-only cancel / resume buttons."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from jobs.models import Job, Run
from jobs.selectors import job_progress
from jobs.services import job_cancel, job_resume
from leaderboard.pages import (
    OUTCOME_TITLES,
    fmt,
    model_url,
    outcome,
    paginate,
    render_page,
    run_url,
    score_text,
)
from leaderboard.tables import Cell, Column, Table, when_cell

LIVE = (Job.Status.PENDING, Job.Status.RUNNING)


def _models_of(jobs: list[Job]) -> dict[int, list[str]]:
    """Model names per job in one query (so a submitter can find their model in the queue)."""
    out: dict[int, list[str]] = {}
    pairs = (
        Run.objects.filter(job_id__in=[j.pk for j in jobs])
        .values_list("job_id", "model__display_name")
        .distinct()
        .order_by("job_id", "model__display_name")
    )
    for job_id, name in pairs:
        out.setdefault(job_id, []).append(name)
    return out


def _job_row(table: Table, job: Job, models: list[str], position: int | None = None) -> None:
    shown = ", ".join(models[:5]) + (f" and {len(models) - 5} more" if len(models) > 5 else "")
    table.add(
        position=Cell(position),
        job=Cell(
            job.pk, f"#{job.pk} {job.name}"[:80], href=reverse("leaderboard:job", args=[job.pk])
        ),
        models=Cell(models, shown or "—"),
        status=_status_cell(job.status, job.done_items, job.failed_items, job.total_items),
        progress=Cell(
            round(job.progress, 4),
            f"{job.ended_items}/{job.total_items} ({100 * job.progress:.0f}%)",
        ),
        failed=Cell(job.failed_items),
        submitted=when_cell(job.created_at),
        finished=when_cell(job.finished_at),
    )


def _status_cell(status: str, done: int, failed: int, total: int) -> Cell:
    shown = outcome(status, done, failed, total)
    return Cell(shown, "", badge=shown, title=OUTCOME_TITLES.get(shown, ""))


def _job_columns(*, position: bool = False) -> list[Column]:
    head = (
        [Column("position", "Place", numeric=True, title="place in the queue, oldest first")]
        if position
        else []
    )
    return [
        *head,
        Column("job", "Job"),
        Column("models", "Models"),
        Column("status", "Status"),
        Column("progress", "Progress", numeric=True),
        Column("failed", "Failed", numeric=True),
        Column("submitted", "Submitted"),
        Column("finished", "Finished"),
    ]


def queue(request):
    live_jobs = list(Job.objects.filter(status__in=LIVE).order_by("created_at")[:200])
    page = paginate(request, Job.objects.exclude(status__in=LIVE).order_by("-created_at"))
    models = _models_of(live_jobs + list(page.object_list))
    live = Table(
        "queue-live",
        "Pending and running",
        _job_columns(position=True),
        empty="The queue is empty.",
    )
    for place, job in enumerate(live_jobs, start=1):
        _job_row(live, job, models.get(job.pk, []), place)
    finished = Table("queue-finished", "Finished", _job_columns())
    for job in page.object_list:
        _job_row(finished, job, models.get(job.pk, []))
    return render_page(request, "leaderboard/queue.html", {"page": page}, [live, finished])


def _runs_of(job: Job):
    return (
        Run.objects.filter(job=job)
        .select_related("model", "benchmark")
        .only(
            "id",
            "status",
            "done_items",
            "failed_items",
            "total_items",
            "score",
            "score_se",
            "model__display_name",
            "model__slug",
            "benchmark__slug",
        )
        # two keys of the metrics, not the whole JSON: an Elo known only as a bound says so
        .annotate(elo_censored=F("metrics__elo_censored"), elo_ci95=F("metrics__elo_ci95"))
        .order_by("id")
    )


def _run_rows(runs) -> list[dict]:
    return [
        {
            "id": r.pk,
            "model": r.model.display_name,
            "model_slug": r.model.slug,
            "benchmark": r.benchmark.slug,
            "status": r.status,
            "outcome": outcome(r.status, r.done_items, r.failed_items, r.total_items),
            "done": r.done_items,
            "failed": r.failed_items,
            "total": r.total_items,
            "score": r.score,
            "score_se": r.score_se,
            "score_text": score_text(r.score, r.score_se, r.elo_censored, r.elo_ci95),
            "url": run_url(r.pk),
        }
        for r in runs
    ]


def _can_resume(job: Job) -> bool:
    return job.failed_items > 0 or job.status == Job.Status.CANCELLED


def job_detail(request, pk: int):
    job = get_object_or_404(Job, pk=pk)
    progress = job_progress(job_id=job.pk)
    page = paginate(request, _runs_of(job))
    runs = Table(
        "job-runs",
        "Runs",
        [
            Column("run", "Run"),
            Column("model", "Model"),
            Column("benchmark", "Benchmark"),
            Column("status", "Status"),
            Column("items", "Done / failed / total", numeric=True),
            Column("score", "Score", numeric=True),
            Column("score_se", "SE", hidden=True),
        ],
        file=f"job-{job.pk}-runs",
    )
    for r in _run_rows(page.object_list):
        runs.add(
            _key=str(r["id"]),
            run=Cell(r["id"], f"#{r['id']}", href=r["url"]),
            model=Cell(r["model"], href=model_url(r["model_slug"])),
            benchmark=Cell(r["benchmark"]),
            status=_status_cell(r["status"], r["done"], r["failed"], r["total"]),
            items=Cell(r["done"], f"{r['done']} / {r['failed']} / {r['total']}"),
            score=Cell(r["score"], r["score_text"], href=r["url"]),
            score_se=Cell(r["score_se"]),
        )
    shown = outcome(job.status, job.done_items, job.failed_items, job.total_items)
    return render_page(
        request,
        "leaderboard/job.html",
        {
            "job": job,
            "progress": progress,
            "live": job.status in LIVE,
            "page": page,
            "percent": fmt(100.0 * job.progress, 0),
            "outcome": shown,
            "outcome_title": OUTCOME_TITLES.get(shown, ""),
            "can_cancel": job.status in LIVE,
            "can_resume": _can_resume(job),
        },
        [runs],
    )


def job_progress_json(request, pk: int):
    """The job's counters; with ?runs=1 also the runs of one page (?page=N, 50 a page, the same
    pages as the job page), so a job of thousands of runs stays a small, fast answer."""
    job = get_object_or_404(Job, pk=pk)
    data = job_progress(job_id=job.pk, job=job)
    data["fraction"] = job.progress
    data["ended"] = job.ended_items
    data["outcome"] = outcome(job.status, job.done_items, job.failed_items, job.total_items)
    data["can_cancel"] = job.status in LIVE
    data["can_resume"] = _can_resume(job)
    if request.GET.get("runs") == "1":
        page = paginate(request, _runs_of(job))
        data["runs"] = [
            {k: v for k, v in r.items() if k != "model_slug"} for r in _run_rows(page.object_list)
        ]
        data["runs_page"], data["runs_pages"] = page.number, page.paginator.num_pages
    response = JsonResponse(data)
    response["Cache-Control"] = "no-store"
    return response


def _staff_job(request, pk: int, perm: str = "jobs.change_job") -> Job:
    """Cancel and resume change a job: staff with Django's change permission only (a staff
    user who may merely view jobs must not be able to stop or re-run them)."""
    user = request.user
    if not (user.is_authenticated and user.is_active and user.is_staff and user.has_perm(perm)):
        raise PermissionDenied(f"needs the {perm} permission")
    return get_object_or_404(Job, pk=pk)


@require_POST
def job_cancel_view(request, pk: int):
    job = _staff_job(request, pk)
    n = job_cancel(job=job)
    messages.info(request, f"Cancelled job #{job.pk}: {n} pending item(s) will not run.")
    return redirect("leaderboard:job", pk=job.pk)


@require_POST
def job_resume_view(request, pk: int):
    job = _staff_job(request, pk)
    n = job_resume(job=job)
    messages.info(request, f"Resumed job #{job.pk}: {n} item(s) re-queued.")
    return redirect("leaderboard:job", pk=job.pk)
