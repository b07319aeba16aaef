"""Ranks as intervals: models whose 95% intervals overlap share a range of ranks."""

from __future__ import annotations

from leaderboard.summaries import Z95


def rank_intervals(scores: list[tuple[float | None, float | None]]) -> list[tuple[int, int] | None]:
    """For each (score, se) the (best, worst) rank among the scored entries, higher is better.

    A model can rank no better than 1 + the number of models clearly above it (their interval
    lies wholly above its interval) and no worse than the count of models not clearly below it.
    Unknown SE counts as zero width. Unscored entries get None.
    """
    bounds: list[tuple[float, float, float] | None] = []
    for score, se in scores:
        if score is None:
            bounds.append(None)
            continue
        width = Z95 * se if se is not None else 0.0
        bounds.append((score - width, score + width, score))
    scored = [b for b in bounds if b is not None]
    out: list[tuple[int, int] | None] = []
    for b in bounds:
        if b is None:
            out.append(None)
            continue
        lo, hi, _ = b
        above = sum(1 for o in scored if o[0] > hi)
        below = sum(1 for o in scored if o[1] < lo)
        out.append((1 + above, len(scored) - below))
    return out


def rank_text(interval: tuple[int, int] | None) -> str:
    if interval is None:
        return "—"
    best, worst = interval
    return str(best) if best == worst else f"{best}–{worst}"
