"""The JSON API. Reads are public; writes (submit, cancel, resume) need a staff API token."""

from __future__ import annotations

import functools

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import get_object_or_404

from api.http import ApiError, api_view, error_response, json_body, paged
from api.openapi import schema
from api.serializers import (
    RUN_FIELDS,
    benchmark_json,
    entry_json,
    family_score_json,
    item_json,
    job_json,
    model_json,
    run_json,
    run_row_json,
)
from catalog.models import Benchmark, ModelEntry
from evaluators.registry import FAMILIES
from jobs.models import ItemResult, Job, Run
from jobs.selectors import benchmarks_by_patterns, job_progress, models_by_names
from jobs.services import job_cancel, job_resume, job_submit
from leaderboard.models import FamilyScore, LeaderboardEntry
from leaderboard.page_cache import cached_page


def health(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def _json(view):
    """The read-model endpoints answer through the page cache (leaderboard.page_cache: keyed by the
    read model's fingerprint, so a refreshed run shows at once), which stores responses."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        result = view(request, *args, **kwargs)
        return (
            result
            if isinstance(result, JsonResponse)
            else JsonResponse(result, json_dumps_params={"default": str})
        )

    return wrapper


@api_view({"GET": False})
def openapi(request, token=None):
    return JsonResponse(schema(), json_dumps_params={"indent": 1})


@api_view({"GET": False})
@cached_page
@_json
def leaderboard(request, token=None):
    """Every active model with its per-family headline."""
    family = request.GET.get("family", "")
    if family and family not in FAMILIES:
        raise ApiError(400, "bad_request", f"family must be one of {sorted(FAMILIES)}")
    data = paged(
        request, ModelEntry.objects.filter(active=True).order_by("display_name"), model_json
    )
    # scores of the models on this page only
    qs = FamilyScore.objects.filter(
        model__slug__in=[m["slug"] for m in data["results"]]
    ).select_related("model")
    if family:
        qs = qs.filter(family=family)
    scores: dict[str, list[dict]] = {}
    for s in qs.order_by("family"):
        scores.setdefault(s.model.slug, []).append(family_score_json(s))
    for m in data["results"]:
        m["families"] = scores.get(m["slug"], [])
    return data


@api_view({"GET": False})
@cached_page
@_json
def family_leaderboard(request, family: str, token=None):
    if family not in FAMILIES:
        raise ApiError(404, "not_found", f"no family {family!r}; families: {sorted(FAMILIES)}")
    qs = (
        LeaderboardEntry.objects.filter(family=family)
        .select_related("model", "benchmark")
        .order_by("benchmark__slug", "part", "-score", "id")
    )
    group = request.GET.get("group")
    if group:
        qs = qs.filter(group=group)
    return paged(request, qs, entry_json, per_page=100)


@api_view({"GET": False})
@cached_page
@_json
def models(request, token=None):
    return paged(
        request, ModelEntry.objects.filter(active=True).order_by("display_name"), model_json
    )


@api_view({"GET": False})
@cached_page
@_json
def model_detail(request, slug: str, token=None):
    m = get_object_or_404(ModelEntry, slug=slug)
    entries = (
        LeaderboardEntry.objects.filter(model=m)
        .select_related("model", "benchmark")
        .order_by("family", "benchmark__slug")
    )
    return {
        **model_json(m),
        "families": [family_score_json(s) for s in FamilyScore.objects.filter(model=m)],
        "results": [entry_json(e) for e in entries],
    }


@api_view({"GET": False})
@cached_page
@_json
def benchmarks(request, token=None):
    qs = Benchmark.objects.filter(active=True).select_related("judge")
    family = request.GET.get("family")
    if family:
        qs = qs.filter(family=family)
    return paged(request, qs.order_by("family", "slug"), benchmark_json, per_page=100)


@api_view({"GET": False})
@cached_page
@_json
def benchmark_detail(request, pk: int, token=None):
    b = get_object_or_404(Benchmark.objects.select_related("judge"), pk=pk)
    entries = (
        LeaderboardEntry.objects.filter(benchmark=b)
        .select_related("model", "benchmark")
        .order_by("part", "-score")
    )
    return {**benchmark_json(b), "results": [entry_json(e) for e in entries]}


@api_view({"GET": False, "POST": "jobs.add_job"})
def jobs(request, token=None):
    if request.method == "POST":
        return _job_submit(request, token)
    qs = Job.objects.order_by("-created_at")
    status = request.GET.get("status")
    if status:
        if status not in Job.Status.values:
            raise ApiError(400, "bad_request", f"status must be one of {Job.Status.values}")
        qs = qs.filter(status=status)
    return paged(request, qs, job_json)


def _string_list(data: dict, field: str) -> list[str]:
    value = data.get(field)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ApiError(422, "invalid", f"{field} must be a non-empty list of strings")
    if len(value) > 500:
        raise ApiError(422, "invalid", f"{field} has more than 500 entries")
    return value


def _job_submit(request, token) -> JsonResponse:
    data = json_body(request)
    unknown = set(data) - {"models", "benchmarks", "samples", "name"}
    if unknown:
        raise ApiError(422, "invalid", f"unknown field(s): {', '.join(sorted(unknown))}")
    model_names = _string_list(data, "models")
    patterns = _string_list(data, "benchmarks")
    samples = data.get("samples")
    cap = settings.PODIUM_MAX_SAMPLES
    if samples is not None and (
        not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= cap
    ):
        raise ApiError(
            422,
            "invalid",
            f"samples must be an integer from 1 to {cap} (PODIUM_MAX_SAMPLES), or null",
        )
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > 200:
        raise ApiError(422, "invalid", "name must be a string of at most 200 characters")
    models = models_by_names(model_names)
    seen: dict[int, str] = {}
    for given, model in zip(model_names, models, strict=True):
        if model.pk in seen:
            raise ApiError(
                400,
                "bad_request",
                f"model {model.slug!r} is listed twice (as {seen[model.pk]!r} and {given!r})",
            )
        seen[model.pk] = given
    job = job_submit(
        models=models,
        benchmarks=benchmarks_by_patterns(patterns),
        samples=samples,
        submitted_by=token.user,
        name=name,
    )
    response = JsonResponse(job_json(job), status=201)
    response["Location"] = f"/api/jobs/{job.pk}"
    return response


@api_view({"GET": False})
def job_detail(request, pk: int, token=None):
    job = get_object_or_404(Job, pk=pk)
    runs = Run.objects.filter(job=job).order_by("id").values(*RUN_FIELDS.values())
    # A campaign job holds thousands of runs: they come a page at a time (page, per_page), as the
    # HTML job page shows them, so the response stays small and fast.
    runs_page = paged(request, runs, run_row_json, per_page=100)
    return {
        **job_json(job),
        "live": job_progress(job_id=job.pk),
        "runs": runs_page["results"],
        "runs_count": runs_page["count"],
        "runs_page": runs_page["page"],
        "runs_pages": runs_page["pages"],
    }


@api_view({"POST": "jobs.change_job"})
def job_cancel_view(request, pk: int, token=None):
    job = get_object_or_404(Job, pk=pk)
    if job.status == Job.Status.DONE:
        raise ApiError(409, "conflict", f"job {job.pk} has already finished")
    cancelled = job_cancel(job=job)
    return {**job_json(job), "cancelled_items": cancelled}


@api_view({"POST": "jobs.change_job"})
def job_resume_view(request, pk: int, token=None):
    job = get_object_or_404(Job, pk=pk)
    requeued = job_resume(job=job)
    job.refresh_from_db()
    return {**job_json(job), "requeued_items": requeued}


@api_view({"GET": False})
def run_detail(request, pk: int, token=None):
    run = get_object_or_404(Run.objects.select_related("model", "benchmark"), pk=pk)
    return run_json(run, full=True)


@api_view({"GET": False})
def run_items(request, pk: int, token=None):
    run = get_object_or_404(Run, pk=pk)
    qs = (
        ItemResult.objects.filter(run=run)
        .order_by("item_key", "sample_index")
        .defer("details", "transcript", "scores", "checkpoint")
    )
    state = request.GET.get("state")
    if state:
        if state not in ItemResult.State.values:
            raise ApiError(400, "bad_request", f"state must be one of {ItemResult.State.values}")
        qs = qs.filter(state=state)
    return paged(request, qs, item_json, per_page=100)


@api_view({"GET": False})
def item_detail(request, pk: int, token=None):
    return item_json(get_object_or_404(ItemResult, pk=pk), full=True)


@api_view({"GET": False})
def game_detail(request, pk: int, token=None):
    """A game item replayed: Hanabi frames (state before each move) or chess positions."""
    item = get_object_or_404(ItemResult.objects.select_related("run__benchmark"), pk=pk)
    family = item.run.benchmark.family
    spec = FAMILIES.get(family)
    if spec is None or spec.game_view is None:
        raise ApiError(404, "not_found", f"item {pk} is a {family} item, not a game")
    try:
        return {"id": item.pk, "family": family, **spec.game_view(dict(item.details or {}))}
    except (
        ValueError
    ) as exc:  # the details do not describe a game (evaluators.hanabi.replay.ReplayError, ...)
        raise ApiError(422, "not_replayable", str(exc)) from None


def not_found(request, path: str = ""):
    return error_response(404, "not_found", f"no API endpoint at /api/{path}")
