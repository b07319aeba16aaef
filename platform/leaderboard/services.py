"""Writes of the leaderboard read model. The job engine calls leaderboard_refresh_run."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q

from catalog.models import Benchmark
from jobs.models import LLMCall, Run
from leaderboard.models import FamilyScore, LeaderboardEntry
from leaderboard.summaries import entry_values, mean_with_se, point_key


def representative_run(model_id: int, benchmark_id: int) -> Run | None:
    """The run that stands for a (model, benchmark) on every board: the most complete (most items
    graded), then the newest. A small resume answered from the cache no longer replaces a bigger
    run; the other runs stay on the model page as history."""
    return (
        Run.objects.filter(
            model_id=model_id, benchmark_id=benchmark_id, aggregated_at__isnull=False
        )
        .exclude(metrics={})
        .order_by("-done_items", "-aggregated_at", "-id")
        .first()
    )


def run_cache_use(run: Run) -> dict[str, int]:
    """How many of a run's model calls were answered from the response cache, and how many of
    those replies were first paid for by another job (so this run shows 0 tokens and $0 for them)."""
    calls = LLMCall.objects.filter(run=run, purpose="model")
    counts = calls.aggregate(calls=Count("id"), hits=Count("id", filter=Q(cache_hit=True)))
    other_jobs = 0
    if counts["hits"]:  # one query for a run without cache hits (the run page reads this)
        # per hit, an index look-up of the paid call by its request hash (request_hash is indexed)
        paid_elsewhere = LLMCall.objects.filter(
            request_hash=OuterRef("request_hash"), cache_hit=False, purpose="model"
        ).exclude(run__job_id=run.job_id)
        other_jobs = calls.filter(cache_hit=True).filter(Exists(paid_elsewhere)).count()
    return {"calls": counts["calls"] or 0, "hits": counts["hits"] or 0, "other_jobs": other_jobs}


@transaction.atomic
def leaderboard_refresh_pair(*, model_id: int, benchmark_id: int) -> list[LeaderboardEntry]:
    """Rebuild the entries of one (model, benchmark) from its latest aggregated run."""
    benchmark = Benchmark.objects.get(pk=benchmark_id)
    run = representative_run(model_id, benchmark_id)
    LeaderboardEntry.objects.filter(model_id=model_id, benchmark_id=benchmark_id).delete()
    entries: list[LeaderboardEntry] = []
    if run is not None:
        cache = run_cache_use(run)
        for values in entry_values(benchmark.family, dict(run.metrics or {}), benchmark.name):
            entries.append(
                LeaderboardEntry(
                    model_id=model_id,
                    benchmark=benchmark,
                    part=values.part,
                    family=benchmark.family,
                    group=values.group,
                    label=values.label,
                    run=run,
                    score=values.score,
                    score_se=values.score_se,
                    score_lo=values.score_lo,
                    score_hi=values.score_hi,
                    norm=values.norm,
                    norm_se=values.norm_se,
                    summary={**values.summary, "cache": cache},
                    input_tokens=run.input_tokens,
                    output_tokens=run.output_tokens,
                    cost_usd=run.cost_usd,
                    judge_cost_usd=run.judge_cost_usd,
                    judge_input_tokens=run.judge_input_tokens,
                    judge_output_tokens=run.judge_output_tokens,
                )
            )
        LeaderboardEntry.objects.bulk_create(entries)
    family_score_refresh(model_id=model_id, family=benchmark.family)
    return entries


def entry_completeness(summary: dict, run_done_items: int) -> int:
    """Items behind one entry: the exam's own count inside a suite run, else the run's."""
    n = summary.get("n_items") if isinstance(summary, dict) else None
    return int(n) if isinstance(n, (int, float)) and not isinstance(n, bool) else run_done_items


def family_score_refresh(*, model_id: int, family: str) -> FamilyScore | None:
    """Recompute a model's family headline: mean of its normalised entries. A HiPhO exam graded
    both alone and inside a suite counts once (the more complete, then the more recent)."""
    latest: dict[str, LeaderboardEntry] = {}
    for entry in (
        LeaderboardEntry.objects.filter(model_id=model_id, family=family, norm__isnull=False)
        .select_related("run")
        .only("norm", "norm_se", "group", "benchmark_id", "part", "summary", "run__done_items")
        .order_by("run__aggregated_at", "id")
    ):
        key = point_key(family, group=entry.group, benchmark_id=entry.benchmark_id, part=entry.part)
        if key not in latest or entry_completeness(
            entry.summary, entry.run.done_items
        ) >= entry_completeness(latest[key].summary, latest[key].run.done_items):
            latest[key] = entry
    values = [(norm, e.norm_se) for e in latest.values() if (norm := e.norm) is not None]
    if not values:
        FamilyScore.objects.filter(model_id=model_id, family=family).delete()
        return None
    score, se = mean_with_se(values)
    obj, _ = FamilyScore.objects.update_or_create(
        model_id=model_id,
        family=family,
        defaults={"score": score, "score_se": se, "n_entries": len(values)},
    )
    return obj


def leaderboard_refresh_run(run_id: int) -> list[LeaderboardEntry]:
    """Called by the engine after a run is aggregated (Run.metrics written, aggregated_at set).
    Idempotent; safe to call for any run, including an older one (the latest run wins)."""
    run = Run.objects.only("model_id", "benchmark_id").get(pk=run_id)
    return leaderboard_refresh_pair(model_id=run.model_id, benchmark_id=run.benchmark_id)


def leaderboard_refresh_all() -> int:
    """Rebuild everything (management command / after a data migration). Returns pairs refreshed."""
    pairs = (
        Run.objects.filter(aggregated_at__isnull=False)
        .values_list("model_id", "benchmark_id")
        .distinct()
    )
    count = 0
    for model_id, benchmark_id in pairs:
        leaderboard_refresh_pair(model_id=model_id, benchmark_id=benchmark_id)
        count += 1
    return count
