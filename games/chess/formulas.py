"""Move-quality formulas: Win%, Lichess accuracy, Lichess judgements, centipawn loss, ranks.

Ported from Lichess's own definitions (lichess-org/lila and lichess-org/scalachess); each
function names the Scala file it follows. All values are from the point of view of the side
that moved. Lichess judges only inaccuracies, mistakes and blunders; the classes best,
excellent and good (Win% drop < 0.5, < 2, otherwise) are Podium's own, used only for moves
Lichess would not judge.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Literal

MoveClass = Literal["best", "excellent", "good", "inaccuracy", "mistake", "blunder"]
Judgement = Literal["inaccuracy", "mistake", "blunder"]
MOVE_CLASSES: tuple[MoveClass, ...] = (
    "best",
    "excellent",
    "good",
    "inaccuracy",
    "mistake",
    "blunder",
)
PODIUM_CLASSES: tuple[MoveClass, ...] = ("best", "excellent", "good")  # ours, not Lichess's
NEVER_LEGAL = "never_legal"  # the bucket of decisions that never produced a legal move

CP_CLAMP = 1000  # scalachess eval.scala: Eval.Cp.CEILING; a mate counts as +-CEILING
CP_LOSS_CAP = 2 * CP_CLAMP  # lila AccuracyCP.scala: the difference of two ceiled values
INITIAL_CP = 15  # scalachess eval.scala / lila tree eval.scala: Cp.initial, the start value
WIN_K = 0.00368208  # scalachess eval.scala: WinPercent.winningChances MULTIPLIER (lila PR 11148)
ACC_A = 103.1668100711649  # lila AccuracyPercent.scala: fromWinPercents
ACC_K = 0.04354415386753951
ACC_B = -3.166924740191411
ACC_BONUS = 1.0  # Lichess adds one point for the uncertainty of the evaluation

# lila modules/tree Advice.scala, CpAdvice: the first threshold the mover's loss of winning
# chances (on the -1..+1 scale) reaches gives the verdict.
_JUDGEMENT_THRESHOLDS: tuple[tuple[float, Judgement], ...] = (
    (0.3, "blunder"),
    (0.2, "mistake"),
    (0.1, "inaccuracy"),
)
# Podium's own classes for the moves Lichess leaves unjudged: upper bounds of the Win% drop.
_PODIUM_BOUNDS: tuple[tuple[float, MoveClass], ...] = ((0.5, "best"), (2.0, "excellent"))


def clamp_cp(cp: int | None, mate: int | None = None) -> int:
    """Centipawns ceiled at +-1000 (scalachess eval.scala: Cp.ceiled, WinPercent.fromMate).

    A mate counts as +-1000: positive when the side to move mates; mate 0 means the side to
    move is already mated, so it counts -1000.
    """
    if mate is not None:
        return CP_CLAMP if mate > 0 else -CP_CLAMP
    if cp is None:
        raise ValueError("an evaluation needs either cp or mate")
    return max(-CP_CLAMP, min(CP_CLAMP, int(cp)))


def winning_chances(cp: float) -> float:
    """scalachess eval.scala WinPercent.winningChances: 2 / (1 + exp(-0.00368208 cp)) - 1 in
    [-1, +1]. The input is NOT ceiled: Lichess's judgements call it on raw centipawns."""
    return max(-1.0, min(1.0, 2.0 / (1.0 + math.exp(-WIN_K * cp)) - 1.0))


def win_percent(cp: float) -> float:
    """scalachess eval.scala WinPercent.fromCentiPawns: 50 + 50 * winningChances(ceiled cp)."""
    return 50.0 + 50.0 * winning_chances(max(-CP_CLAMP, min(CP_CLAMP, cp)))


def move_accuracy(win_before: float, win_after: float) -> float:
    """lila AccuracyPercent.scala fromWinPercents: the mover's accuracy from Win% before/after."""
    if win_after >= win_before:
        return 100.0
    drop = win_before - win_after
    raw = ACC_A * math.exp(-ACC_K * drop) + ACC_B + ACC_BONUS
    return max(0.0, min(100.0, raw))


def lichess_judgement(
    cp_before: int | None, mate_before: int | None, cp_after: int | None, mate_after: int | None
) -> Judgement | None:
    """Lichess's verdict on a move (lila modules/tree Advice.scala), mover's point of view.

    ``before`` is the position's value (the engine's best line), ``after`` the value of the
    played move; each is a cp (uncapped) or a mate in moves (positive: the mover mates).
    CpAdvice (both cp): the loss of winning chances on raw cp against 0.3 / 0.2 / 0.1.
    MateAdvice: allowing a forced mate from a cp position (MateCreated) is an inaccuracy if the
    mover was already below -999 cp, a mistake below -700, else a blunder; losing a forced
    mate (MateLost: to a cp value, or to being mated, which counts as 0 cp) is an inaccuracy if
    the mover still has more than +999, a mistake above +700, else a blunder. Other mate
    changes (a slower mate, a faster defeat) get no verdict.
    """
    if mate_before is None and mate_after is None:
        if cp_before is None or cp_after is None:
            raise ValueError("an evaluation needs either cp or mate")
        delta = winning_chances(cp_before) - winning_chances(cp_after)
        return next((name for bound, name in _JUDGEMENT_THRESHOLDS if bound <= delta), None)
    before_cp = cp_before if mate_before is None else 0  # Lichess's "cp or zero"
    after_cp = cp_after if mate_after is None else 0
    created = mate_before is None and mate_after is not None and mate_after < 0
    lost = mate_before is not None and mate_before > 0 and (mate_after is None or mate_after < 0)
    if created:
        assert before_cp is not None
        return "inaccuracy" if before_cp < -999 else "mistake" if before_cp < -700 else "blunder"
    if lost:
        assert after_cp is not None
        return "inaccuracy" if after_cp > 999 else "mistake" if after_cp > 700 else "blunder"
    return None


def classify(drop: float, *, is_engine_top: bool, judgement: Judgement | None = None) -> MoveClass:
    """A move's class: Lichess's judgement when it gives one, else Podium's own class.

    Lichess judges only moves off the engine's line, so the engine's top choice is always
    "best". Unjudged moves are split by the Win% drop (on ceiled cp) into Podium's best
    (< 0.5), excellent (< 2) and good (the rest); these three are not Lichess classes.
    """
    if is_engine_top:
        return "best"
    if judgement is not None:
        return judgement
    for bound, name in _PODIUM_BOUNDS:
        if drop < bound:
            return name
    return "good"


def cp_loss(cp_best: int, cp_played: int) -> int:
    """lila AccuracyCP.scala diffsList: the drop between the two values, each ceiled at +-1000
    (so at most 2000), never negative."""
    return max(0, clamp_cp(cp_best) - clamp_cp(cp_played))


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


def acpl(losses: Sequence[int]) -> int | None:
    """lila AccuracyCP.scala mean: the mean loss rounded to an integer (Java Math.round: half
    up); None for no moves."""
    if not losses:
        return None
    return math.floor(sum(losses) / len(losses) + 0.5)


def harmonic_mean(xs: Sequence[float]) -> float:
    """scalalib Maths.scala harmonicMean: n / sum(1 / max(1, x)); a value below 1 counts as 1."""
    if not xs:
        raise ValueError("harmonic mean of no values")
    return len(xs) / sum(1.0 / max(1.0, x) for x in xs)


def _weighted_mean(pairs: Sequence[tuple[float, float]]) -> float:
    total = sum(w for _, w in pairs)
    return sum(x * w for x, w in pairs) / total


def game_accuracy(
    white_cps: Sequence[int], *, white_to_move_first: bool = True
) -> dict[str, float | None]:
    """lila AccuracyPercent.scala gameAccuracy: each colour's game accuracy.

    ``white_cps`` holds White's value after every move of the game (a mate already counted as
    +-1000; a value beyond is ceiled). The series starts from Lichess's fixed initial value,
    15 cp, not from an engine evaluation of the first position. Each move's accuracy is
    weighted by the volatility (population standard deviation, clamped to 0.5-12) of the Win%
    in a sliding window of size n/10 clamped to 2-8; a colour's accuracy is the mean of that
    weighted mean and the harmonic mean of its move accuracies (None if it made no move).
    """
    wp = [win_percent(INITIAL_CP)] + [win_percent(cp) for cp in white_cps]
    n_moves = len(white_cps)
    if n_moves < 1:
        return {"white": None, "black": None}
    window = max(2, min(8, n_moves // 10))
    windows = [wp[:window]] * (min(window, len(wp)) - 2) + [
        wp[i : i + window] for i in range(len(wp) - window + 1)
    ]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) for w in windows]
    per_colour: dict[str, list[tuple[float, float]]] = {"white": [], "black": []}
    for i in range(n_moves):
        white_moves = (i % 2 == 0) == white_to_move_first
        before, after = wp[i], wp[i + 1]
        if not white_moves:
            before, after = 100.0 - before, 100.0 - after
        per_colour["white" if white_moves else "black"].append(
            (move_accuracy(before, after), weights[i])
        )
    out: dict[str, float | None] = {}
    for colour, pairs in per_colour.items():
        if not pairs:
            out[colour] = None
            continue
        out[colour] = (_weighted_mean(pairs) + harmonic_mean([a for a, _ in pairs])) / 2.0
    return out
