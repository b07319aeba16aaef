"""What of Run.metrics the leaderboard stores: each family's ``entries`` function (named in
evaluators.registry) turns its typed metrics into EntryValues. An unregistered family is an
error here, never a silent empty column."""

from __future__ import annotations

from typing import Any

from evaluators.entries import Z95, EntryValues
from evaluators.registry import get_spec
from evaluators.stats import mean_of_estimates as mean_with_se

__all__ = ["Z95", "EntryValues", "entry_values", "mean_with_se"]


def entry_values(family: str, metrics: dict[str, Any], benchmark_name: str) -> list[EntryValues]:
    """One EntryValues per part of a run (a HiPhO suite run yields one per exam)."""
    return get_spec(family).entry_values(metrics, benchmark_name)


def point_key(family: str, *, group: str, benchmark_id: int, part: str) -> str:
    """What one point of a family's headline is (FamilySpec.score_key): a benchmark (and part),
    or an entry group (a HiPhO exam counts once, whichever benchmark graded it)."""
    if get_spec(family).score_key == "group" and group:
        return group
    return f"{benchmark_id}:{part}"
