"""Rows as JSON-able dicts. Model text goes out as data; clients must escape it themselves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalog.models import Benchmark, ModelEntry
from jobs.models import ItemResult, Job, Run
from jobs.public_errors import error_public
from leaderboard.models import FamilyScore, LeaderboardEntry


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def model_json(m: ModelEntry) -> dict[str, Any]:
    # api_key_env is the NAME of a variable on the workers; still not shown publicly
    return {
        "slug": m.slug,
        "display_name": m.display_name,
        "litellm_model": m.litellm_model,
        "organisation": m.organisation,
        "open_weights": m.open_weights,
        "parameter_count_b": m.parameter_count_b,
        "modality": m.modality,
        "active": m.active,
        "builtin": m.is_builtin,
        "params": m.params,
    }


def benchmark_json(b: Benchmark) -> dict[str, Any]:
    return {
        "id": b.pk,
        "slug": b.slug,
        "name": b.name,
        "family": b.family,
        "version": b.version,
        "default_samples": b.default_samples,
        "description": b.description,
        "config": b.config,
        "active": b.active,
        "judge": b.judge.slug if b.judge_id and b.judge else None,
    }


def entry_json(e: LeaderboardEntry) -> dict[str, Any]:
    return {
        "model": e.model.slug,
        "benchmark": e.benchmark.slug,
        "part": e.part,
        "family": e.family,
        "group": e.group,
        "label": e.label,
        "run": e.run_id,
        "score": e.score,
        "score_se": e.score_se,
        "score_ci95": [e.score_lo, e.score_hi],
        "normalised": e.norm,
        "normalised_se": e.norm_se,
        "summary": e.summary,
        "input_tokens": e.input_tokens,
        "output_tokens": e.output_tokens,
        "cost_usd": e.cost_usd,
        "judge_input_tokens": e.judge_input_tokens,
        "judge_output_tokens": e.judge_output_tokens,
        "judge_cost_usd": e.judge_cost_usd,
        "updated_at": _iso(e.updated_at),
    }


def family_score_json(s: FamilyScore) -> dict[str, Any]:
    return {"family": s.family, "score": s.score, "score_se": s.score_se, "n_entries": s.n_entries}


def job_json(j: Job) -> dict[str, Any]:
    return {
        "id": j.pk,
        "name": j.name,
        "status": j.status,
        "samples": j.samples,
        "total_items": j.total_items,
        "done_items": j.done_items,
        "failed_items": j.failed_items,
        "progress": j.progress,
        "created_at": _iso(j.created_at),
        "started_at": _iso(j.started_at),
        "finished_at": _iso(j.finished_at),
    }


# A run as the API shows it: output key -> the field it comes from (a path through the model and
# the benchmark). A list of runs reads exactly these columns as values() rows (run_row_json),
# without building three model instances per run (half the time of a page of 100 runs).
RUN_FIELDS = {
    "id": "id",
    "job": "job_id",
    "model": "model__slug",
    "benchmark": "benchmark__slug",
    "family": "benchmark__family",
    "status": "status",
    "score": "score",
    "score_se": "score_se",
    "total_items": "total_items",
    "done_items": "done_items",
    "failed_items": "failed_items",
    "input_tokens": "input_tokens",
    "output_tokens": "output_tokens",
    "reasoning_tokens": "reasoning_tokens",
    "cost_usd": "cost_usd",
    "judge_cost_usd": "judge_cost_usd",
    "judge_input_tokens": "judge_input_tokens",
    "judge_output_tokens": "judge_output_tokens",
    "spec_hash": "spec_hash",
    "finished_at": "finished_at",
    "aggregated_at": "aggregated_at",
}
_RUN_TIMES = ("finished_at", "aggregated_at")


def run_row_json(row: Mapping[str, Any]) -> dict[str, Any]:
    """A run from a ``values(*RUN_FIELDS.values())`` row."""
    return {
        key: _iso(row[src]) if key in _RUN_TIMES else row[src] for key, src in RUN_FIELDS.items()
    }


def _path(obj: Any, path: str) -> Any:
    for part in path.split("__"):
        obj = getattr(obj, part)
    return obj


def run_json(r: Run, *, full: bool = False) -> dict[str, Any]:
    data = run_row_json({src: _path(r, src) for src in RUN_FIELDS.values()})
    if full:
        data["spec"] = r.spec
        data["metrics"] = r.metrics
    return data


def item_json(i: ItemResult, *, full: bool = False) -> dict[str, Any]:
    data = {
        "id": i.pk,
        "run": i.run_id,
        "key": i.item_key,
        "sample_index": i.sample_index,
        "state": i.state,
        "score": i.score,
        "attempts": i.attempts,
        "error": error_public(i.error),
        "finished_at": _iso(i.finished_at),
    }
    if full:
        data.update(scores=i.scores, details=i.details, transcript=i.transcript)
    return data
