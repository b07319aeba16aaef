"""The run spec: everything that produced a number, so it can be traced and re-scored."""

from __future__ import annotations

import subprocess
from functools import cache
from typing import Any

from django.conf import settings

from catalog.models import Benchmark, ModelEntry
from evaluators.base import FamilyEvaluator, stable_hash


@cache
def code_version() -> str:
    """The git commit of the code, with '+dirty' when the work tree differs from it."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=settings.BASE_DIR, capture_output=True, text=True,
            timeout=5, check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=settings.BASE_DIR,
            capture_output=True, text=True, timeout=5,
        ).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_spec_build(
    *, family: FamilyEvaluator, config: dict[str, Any], model: ModelEntry, benchmark: Benchmark,
    samples: int, params_override: dict[str, Any],
) -> dict[str, Any]:
    family_spec = family.spec(config)
    spec = {
        "benchmark": benchmark.slug,
        "benchmark_version": benchmark.version,
        "family": benchmark.family,
        "config": config,
        "samples": samples,
        "model": model.litellm_model,
        "model_params": {**(model.params or {}), **params_override},
        "judge": benchmark.judge.litellm_model if benchmark.judge_id else None,
        "judge_params": dict(benchmark.judge.params or {}) if benchmark.judge_id else None,
        "code_version": code_version(),
        **family_spec,
    }
    return spec


def spec_hash(spec: dict[str, Any]) -> str:
    return stable_hash(spec)
