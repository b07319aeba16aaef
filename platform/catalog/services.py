"""Writes to the catalogue: model registration, built-in players, default benchmarks."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Benchmark, ModelEntry
from catalog.validation import (
    validate_api_base,
    validate_api_key_env,
    validate_model_string,
    validate_params,
)
from evaluators.base import ConfigError
from evaluators.registry import FAMILIES, UnknownFamilyError, get_family, get_spec

BASELINE_ORG = "Podium baseline"


def model_register(
    *,
    slug: str,
    display_name: str,
    litellm_model: str,
    api_base: str = "",
    api_key_env: str = "",
    params: Mapping[str, Any] | None = None,
    organisation: str = "",
    open_weights: bool = False,
    parameter_count_b: float | None = None,
    modality: str = ModelEntry.Modality.TEXT,
    notes: str = "",
    rpm_limit: int | None = None,
    tpm_limit: int | None = None,
    max_concurrency: int | None = None,
    created_by=None,
) -> ModelEntry:
    """Validate everything first, then write one row (or nothing)."""
    params = {} if params is None else params
    validate_model_string(litellm_model)
    validate_api_base(api_base)
    validate_api_key_env(api_key_env)
    validate_params(params)
    params = dict(params)
    if modality not in ModelEntry.Modality.values:
        raise ValidationError(
            f"modality must be one of {ModelEntry.Modality.values}, got {modality!r}"
        )
    entry = ModelEntry(
        slug=slug,
        display_name=display_name,
        litellm_model=litellm_model,
        api_base=api_base,
        api_key_env=api_key_env,
        params=params,
        organisation=organisation,
        open_weights=open_weights,
        parameter_count_b=parameter_count_b,
        modality=modality,
        notes=notes,
        rpm_limit=rpm_limit,
        tpm_limit=tpm_limit,
        max_concurrency=max_concurrency,
        created_by=created_by,
    )
    entry.full_clean()
    entry.save()
    return entry


def model_key_warning(entry: ModelEntry) -> str | None:
    """A warning (not an error: workers may run elsewhere) when the key variable is unset here."""
    if entry.is_builtin or not entry.api_key_env:
        return None
    if os.environ.get(entry.api_key_env):
        return None
    return (
        f"environment variable {entry.api_key_env} is not set on this host; "
        "workers that evaluate this model need it"
    )


def builtin_models_ensure() -> list[ModelEntry]:
    """Register every family's built-in players (bots, engines, reference baselines)."""
    entries = []
    with transaction.atomic():
        for family, spec in FAMILIES.items():
            for name, display in spec.builtins.items():
                entry, _ = ModelEntry.objects.update_or_create(
                    litellm_model=f"builtin/{name}",
                    defaults={
                        "slug": f"builtin-{name}",
                        "display_name": display,
                        "organisation": BASELINE_ORG,
                        "open_weights": True,
                        "notes": f"{family} baseline run by the platform itself",
                    },
                )
                entries.append(entry)
    return entries


def benchmark_validate_config(*, family: str, config: Mapping[str, Any]) -> dict[str, Any]:
    try:
        evaluator = get_family(family)
    except UnknownFamilyError as exc:
        raise ValidationError(f"benchmark family: {exc}") from exc
    try:
        return evaluator.validate_config(config)
    except ConfigError as exc:
        raise ValidationError(f"benchmark config: {exc}") from exc


def benchmarks_ensure(family: str | None = None) -> list[Benchmark]:
    """Register (or refresh) the default benchmarks each family ships."""
    families = [get_spec(family).slug] if family else list(FAMILIES)
    out = []
    with transaction.atomic():
        for fam in families:
            for spec in get_spec(fam).default_benchmarks:
                config = benchmark_validate_config(family=fam, config=spec["config"])
                bench, _ = Benchmark.objects.update_or_create(
                    slug=spec["slug"],
                    defaults={
                        "name": spec["name"],
                        "family": fam,
                        "version": str(spec.get("version", "1")),
                        "config": config,
                        "default_samples": int(spec.get("default_samples", 1)),
                        "description": spec.get("description", ""),
                    },
                )
                out.append(bench)
    return out
