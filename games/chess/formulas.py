"""Move-quality formulas: Win%, Lichess accuracy, move classes, centipawn loss, percentile rank.

All Win% values are from the point of view of the side that moved (0-100). The constants are
the ones Lichess publishes for its accuracy model.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Literal

MoveClass = Literal["best", "excellent", "good", "inaccuracy", "mistake", "blunder"]
MOVE_CLASSES: tuple[MoveClass, ...] = ("best", "excellent", "good", "inaccuracy", "mistake", "blunder")

CP_CLAMP = 1000  # centipawns; a mate counts as +-CP_CLAMP
CP_LOSS_CAP = 1000
WIN_K = 0.00368208
ACC_A = 103.1668100711649
ACC_K = 0.04354415386753951
ACC_B = -3.166924740191411
ACC_BONUS = 1.0  # Lichess adds one point for the uncertainty of the evaluation

# Upper bounds (exclusive) of the Win% drop for each class; a drop >= 15 is a blunder.
_CLASS_BOUNDS: tuple[tuple[float, MoveClass], ...] = (
    (0.5, "best"), (2.0, "excellent"), (5.0, "good"), (10.0, "inaccuracy"), (15.0, "mistake"),
)


def clamp_cp(cp: int | None, mate: int | None = None) -> int:
    """Centipawns clamped to +-1000; a mate (positive: side to move mates) is +-1000."""
    if mate is not None:
        # mate 0 means the side to move is already mated
        return CP_CLAMP if mate > 0 else -CP_CLAMP
    if cp is None:
        raise ValueError("an evaluation needs either cp or mate")
    return max(-CP_CLAMP, min(CP_CLAMP, int(cp)))


def win_percent(cp: float) -> float:
    """Lichess Win%: 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1), cp clamped to +-1000."""
    cp = max(-CP_CLAMP, min(CP_CLAMP, cp))
    return 50.0 + 50.0 * (2.0 / (1.0 + math.exp(-WIN_K * cp)) - 1.0)


def move_accuracy(win_before: float, win_after: float) -> float:
    """Lichess per-move accuracy from the mover's Win% before and after the move."""
    if win_after >= win_before:
        return 100.0
    drop = win_before - win_after
    raw = ACC_A * math.exp(-ACC_K * drop) + ACC_B + ACC_BONUS
    return max(0.0, min(100.0, raw))


def classify(drop: float, *, is_engine_top: bool) -> MoveClass:
    """Class of a move from its Win% drop against the engine's best move."""
    if is_engine_top:
        return "best"
    for bound, name in _CLASS_BOUNDS:
        if drop < bound:
            return name
    return "blunder"


def cp_loss(cp_best: int, cp_played: int) -> int:
    """Centipawn loss of a move (both values clamped, from the mover's view), capped at 1000."""
    return max(0, min(CP_LOSS_CAP, clamp_cp(cp_best) - clamp_cp(cp_played)))


def percentile_rank(value: float, all_values: Sequence[float]) -> float:
    """Percentile (0-100) of a move among all legal moves by engine value, ties shared.

    ``all_values`` holds every legal move's value, the move itself included. The rank is the
    share of the OTHER moves the move beats, a tie counting half: the unique best move is 100,
    the unique worst 0, and a move tied with everything 50. With a single legal move it is 100.
    """
    if not all_values:
        raise ValueError("percentile_rank needs the values of all legal moves")
    others = len(all_values) - 1
    if others == 0:
        return 100.0
    below = sum(1 for v in all_values if v < value)
    equal_others = sum(1 for v in all_values if v == value) - 1
    if equal_others < 0:
        raise ValueError("the move's own value must be among all_values")
    return 100.0 * (below + 0.5 * equal_others) / others


def acpl(losses: Sequence[int]) -> float | None:
    """Average centipawn loss; None for no moves."""
    return sum(losses) / len(losses) if losses else None


def harmonic_mean(xs: Sequence[float]) -> float:
    """Harmonic mean; a zero anywhere makes it zero (its limit), so no division error."""
    if not xs:
        raise ValueError("harmonic mean of no values")
    if any(x <= 0 for x in xs):
        return 0.0
    return len(xs) / sum(1.0 / x for x in xs)


def _weighted_mean(pairs: Sequence[tuple[float, float]]) -> float:
    total = sum(w for _, w in pairs)
    return sum(x * w for x, w in pairs) / total


def game_accuracy(white_win_percents: Sequence[float], *, white_to_move_first: bool = True
                  ) -> dict[str, float | None]:
    """Lichess game accuracy for each colour.

    ``white_win_percents`` holds White's Win% of every position of the game, the start
    position included (n moves -> n + 1 values). Each move's accuracy comes from the mover's
    Win% before and after it; it is weighted by the volatility (standard deviation, clamped to
    0.5-12) of the Win% in a sliding window around it. A colour's accuracy is the mean of that
    weighted mean and the harmonic mean of its move accuracies (None if it made no move).
    """
    wp = list(white_win_percents)
    n_moves = len(wp) - 1
    if n_moves < 1:
        return {"white": None, "black": None}
    window = max(2, min(8, n_moves // 10))
    window = min(window, len(wp))
    windows = [wp[:window]] * (window - 2) + [wp[i:i + window] for i in range(len(wp) - window + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) for w in windows]
    per_colour: dict[str, list[tuple[float, float]]] = {"white": [], "black": []}
    for i in range(n_moves):
        white_moves = (i % 2 == 0) == white_to_move_first
        before, after = wp[i], wp[i + 1]
        if not white_moves:
            before, after = 100.0 - before, 100.0 - after
        per_colour["white" if white_moves else "black"].append(
            (move_accuracy(before, after), weights[i]))
    out: dict[str, float | None] = {}
    for colour, pairs in per_colour.items():
        if not pairs:
            out[colour] = None
            continue
        out[colour] = (_weighted_mean(pairs) + harmonic_mean([a for a, _ in pairs])) / 2.0
    return out
