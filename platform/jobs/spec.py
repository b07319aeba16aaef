"""The run spec: everything that produced a number, so it can be traced and re-scored."""

from __future__ import annotations

import subprocess
from functools import cache
from typing import Any

from django.conf import settings

from catalog.models import Benchmark, ModelEntry
from evaluators.base import FamilyEvaluator, ModelConfig, stable_hash


@cache
def code_version() -> str:
    """The git commit of the code, with '+dirty' when the work tree differs from it."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_spec_build(
    *,
    family: FamilyEvaluator,
    config: dict[str, Any],
    model: ModelEntry,
    benchmark: Benchmark,
    samples: int,
    params_override: dict[str, Any],
) -> dict[str, Any]:
    family_spec = family.spec(config)
    judge = benchmark.judge if benchmark.judge_id else None
    spec = {
        "benchmark": benchmark.slug,
        "benchmark_version": benchmark.version,
        "family": benchmark.family,
        "config": config,
        "samples": samples,
        # What the worker executes (jobs.runner builds the model and judge from these, not from
        # the current catalogue rows): editing a model after submission changes new jobs only.
        # Endpoint, key variable and rate limits stay operational settings read at run time.
        "model": model.litellm_model,
        "model_params": {**(model.params or {}), **params_override},
        "model_vision": model.vision,
        "judge": judge.litellm_model if judge else None,
        "judge_slug": judge.slug if judge else None,
        "judge_params": dict(judge.params or {}) if judge else None,
        "judge_vision": judge.vision if judge else None,
        "partner_models": _partner_models(config),
        "code_version": code_version(),
        **family_spec,
    }
    return spec


def _partner_models(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Frozen model string and parameters of every catalogued model the benchmark plays with
    (Hanabi partners, chess opponents); unknown slugs are left to the evaluator to report."""
    from jobs.queue import referenced_models

    slugs = referenced_models(config)
    if not slugs:
        return {}
    return {
        m.slug: {"model": m.litellm_model, "params": dict(m.params or {}), "vision": m.vision}
        for m in ModelEntry.objects.filter(slug__in=slugs)
    }


def frozen_model(
    entry: ModelEntry, *, model: str | None, params: dict[str, Any] | None, vision: bool | None
) -> ModelConfig:
    """The catalogue entry's endpoint and limits with the model string, parameters and modality
    recorded in a spec (each falls back to the entry's when the spec predates it)."""
    config = entry.to_config()
    return ModelConfig(
        **{
            **config.__dict__,
            "model": model if model else config.model,
            "params": dict(params) if params is not None else dict(config.params),
            "vision": bool(vision) if vision is not None else config.vision,
        }
    )


def spec_hash(spec: dict[str, Any]) -> str:
    return stable_hash(spec)
