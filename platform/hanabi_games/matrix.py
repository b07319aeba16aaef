"""The cross-play matrix from the leaderboard read model (what `manage.py hanabi_matrix` prints
from runs, here from LeaderboardEntry rows so the page never reads runs per request)."""

from __future__ import annotations

from collections import Counter
from typing import Any


def crossplay_from_entries(
    entries, *, players: int | None = None, setting: str | None = None
) -> dict[str, Any]:
    """Row agent x partner -> {score, score_se, games, run}. Self-play entries fill the diagonal,
    cross-play entries with exactly one partner the other cells. ``players`` defaults to the
    player count with the most cross-play entries; bots (no setting) count in any setting."""

    def mode(e) -> str:
        return str(e.summary.get("mode") or ("cross" if e.group == "cross" else "self"))

    cross = [e for e in entries if mode(e) == "cross" and len(e.summary.get("partners") or []) == 1]
    if players is None:
        counts = Counter(e.summary.get("players") for e in cross if e.summary.get("players"))
        players = counts.most_common(1)[0][0] if counts else 2
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    agents: set[str] = set()
    for e in entries:
        s = e.summary
        if s.get("players") != players or e.score is None:
            continue
        if setting is not None and s.get("setting") not in (setting, None):
            continue
        row = e.model.slug
        if mode(e) == "cross":
            partners = s.get("partners") or []
            if len(partners) != 1:
                continue
            col = str(partners[0])
        else:
            col = row
        agents.update((row, col))
        cells.setdefault(row, {})[col] = {
            "score": e.score,
            "score_se": e.score_se,
            "games": s.get("games") or s.get("n_items"),
            "run": e.run_id,
        }
    diag = [cells[a][a]["score"] for a in agents if a in cells.get(a, {})]
    off = [c["score"] for r, row in cells.items() for k, c in row.items() if k != r]
    return {
        "players": players,
        "setting": setting,
        "agents": sorted(agents),
        "cells": cells,
        "diagonal_mean": sum(diag) / len(diag) if diag else None,
        "off_diagonal_mean": sum(off) / len(off) if off else None,
    }
