"""Reads over stored Hanabi results: trajectories for export and the cross-play matrix."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from evaluators.hanabi import game_log, game_rewards
from jobs.models import ItemResult, Run


def run_trajectories(*, run: Run, kind: str = "logs") -> Iterator[dict[str, Any]]:
    """One export record per finished game of a Hanabi run, in item order: ``logs``
    (HanabiLogs-like, every move as the player saw it) or ``rewards`` (HanabiRewards-like,
    every candidate's utility)."""
    if kind not in ("logs", "rewards"):
        raise ValueError(f"kind: must be 'logs' or 'rewards', got {kind!r}")
    if run.benchmark.family != "hanabi":
        raise ValueError(f"run {run.pk} is a {run.benchmark.family} run, not hanabi")
    meta = {
        "id": run.pk,
        "model": run.model.slug,
        "benchmark": run.benchmark.slug,
        "spec_hash": run.spec_hash,
    }
    items = (
        ItemResult.objects.filter(run=run, state=ItemResult.State.DONE)
        .order_by("item_key", "sample_index")
        .iterator()
    )
    for item in items:
        if kind == "rewards":
            yield game_rewards(item.details, item.scores, key=item.item_key, run=meta)
        else:
            yield game_log(
                item.details,
                item.scores,
                key=item.item_key,
                run=meta,
                transcript=item.transcript or (),
            )


def _latest_runs(players: int, setting: str | None) -> list[Run]:
    runs = (
        Run.objects.filter(benchmark__family="hanabi", aggregated_at__isnull=False)
        .select_related("model", "benchmark")
        .order_by("-aggregated_at")
    )
    seen, out = set(), []
    for run in runs:
        m = run.metrics or {}
        if m.get("players") != players or m.get("games", 0) == 0:
            continue
        if setting is not None and m.get("setting") not in (setting, None):
            continue
        partners = m.get("partners") or []
        if m.get("mode") == "cross" and len(partners) != 1:
            continue  # a multi-partner run has no single cell
        column = run.model.slug if m.get("mode") != "cross" else partners[0]
        cell = (run.model.slug, column)
        if cell in seen:
            continue  # only the latest run of each pairing counts
        seen.add(cell)
        out.append(run)
    return out


def crossplay_matrix(*, players: int = 2, setting: str | None = None) -> dict[str, Any]:
    """Row model x partner -> mean HLE score (0 when the last life is lost) ± SE and the
    number of games, from stored Run.metrics; the mean fireworks total (cards kept on a
    bomb-out) rides along as a secondary figure.

    The diagonal is self-play; ``gap`` is the diagonal mean minus the off-diagonal mean
    (how much teams lose when the partner is not a copy of oneself). Bots (setting null)
    are included in any setting's matrix as partners.
    """
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    agents: list[str] = []
    for run in _latest_runs(players, setting):
        m = run.metrics
        row = run.model.slug
        col = row if m.get("mode") != "cross" else m["partners"][0]
        for a in (row, col):
            if a not in agents:
                agents.append(a)
        cells.setdefault(row, {})[col] = {
            "score": m.get("mean_hle_score", m.get("score")),
            "score_se": m.get("hle_score_se", m.get("score_se")),
            "games": m.get("games"),
            "fireworks": m.get("mean_fireworks_score"),
            "run": run.pk,
        }
    diag = [cells[a][a]["score"] for a in agents if a in cells.get(a, {})]
    off = [c["score"] for r, row in cells.items() for k, c in row.items() if k != r]
    diag_mean = sum(diag) / len(diag) if diag else None
    off_mean = sum(off) / len(off) if off else None
    return {
        "players": players,
        "setting": setting,
        "agents": sorted(agents),
        "cells": cells,
        "diagonal_mean": diag_mean,
        "off_diagonal_mean": off_mean,
        "gap": diag_mean - off_mean if diag_mean is not None and off_mean is not None else None,
    }
