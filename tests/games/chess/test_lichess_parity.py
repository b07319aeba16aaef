"""Lichess parity (issue 13, D1-D6): each rule pinned to the value Lichess's definitions give.

The sources: lila modules/analyse AccuracyPercent.scala and AccuracyCP.scala, lila
modules/tree Advice.scala, scalachess core eval.scala (WinPercent, Cp.CEILING, Cp.initial)
and scalalib Maths.scala (harmonicMean, weightedMean, standardDeviation). The first group of
cases are the ones lila's own AccuracyPercentTest.scala checks, with its tolerances.
"""

from __future__ import annotations

import pytest

from games.chess.formulas import (
    INITIAL_CP,
    acpl,
    classify,
    cp_loss,
    game_accuracy,
    harmonic_mean,
    lichess_judgement,
    move_accuracy,
    win_percent,
    winning_chances,
)


def _close(value: float | None, target: float, tol: float) -> bool:
    return value is not None and abs(value - target) <= tol


# (White's cp after each move, white's target, its tolerance, black's target, its tolerance),
# as in lila's AccuracyPercentTest.scala (White moves first).
LILA_CASES = [
    ([15, 15], 100, 1, 100, 1),
    ([-900, -900], 10, 5, 100, 1),
    ([15, 900], 100, 1, 10, 5),
    ([-900, 0], 10, 5, 10, 5),
    ([15] * 20, 100, 1, 100, 1),
    ([15] * 20 + [-900], 50, 5, 100, 1),
    ([15] * 21 + [900], 100, 1, 50, 5),
    ([-50, 15] * 5, 76, 8, 76, 8),
    ([-50, 15] * 50, 76, 8, 76, 8),
    ([-135, 15] * 50, 54, 8, 54, 8),
    ([-435, 15] * 50, 20, 8, 20, 8),
]


@pytest.mark.parametrize("cps,white,wtol,black,btol", LILA_CASES)
def test_it_passes_lilas_own_game_accuracy_cases(cps, white, wtol, black, btol):
    acc = game_accuracy(cps)
    assert _close(acc["white"], white, wtol) and _close(acc["black"], black, btol)


@pytest.mark.parametrize(
    "cps,black,btol,white,wtol",
    [
        ([15, 15], 100, 1, 100, 1),
        ([900, 900], 10, 5, 100, 1),
        ([15, -900], 100, 1, 10, 5),
        ([900, 0], 10, 5, 10, 5),
    ],
)
def test_it_passes_lilas_cases_where_black_moves_first(cps, black, btol, white, wtol):
    acc = game_accuracy(cps, white_to_move_first=False)
    assert _close(acc["black"], black, btol) and _close(acc["white"], white, wtol)


def test_a_colour_without_moves_has_no_accuracy():
    assert game_accuracy([]) == {"white": None, "black": None}
    assert game_accuracy([15])["black"] is None


def test_d1_the_harmonic_mean_counts_a_zero_accuracy_as_one():
    # 40 plies: Black blunders at ply 2 (+760 for White) and White throws it all away at ply
    # 21 (to -750). That move's accuracy is 0.038; Lichess's harmonic mean takes 1/max(1, v),
    # so White's harmonic mean is 20 / (19/100 + 1) = 16.8067, not 0. The volatility-weighted
    # mean of White's moves is 78.5796, and the game accuracy the mean of the two.
    cps = [15] + [760] * 19 + [-750] * 20
    assert harmonic_mean([100.0] * 19 + [0.038]) == pytest.approx(20 / 1.19)
    assert game_accuracy(cps)["white"] == pytest.approx(47.6932, abs=5e-4)
    # the old rule (a zero anywhere makes the harmonic mean zero) gave half the weighted mean
    assert game_accuracy(cps)["white"] - 16.8067 / 2 == pytest.approx(39.2898, abs=5e-4)


@pytest.mark.parametrize(
    "before,after,verdict",
    [
        ((1500, None), (700, None), "inaccuracy"),  # D2: judged on uncapped cp
        ((None, 5), (750, None), "mistake"),  # D3: mate in 5 -> +750
        ((-800, None), (None, -4), "mistake"),  # D3: -800 -> mated in 4
        ((None, 5), (1200, None), "inaccuracy"),  # D3: mate in 5 -> +1200
        ((-1200, None), (None, -4), "inaccuracy"),  # D3: -1200 -> mated in 4
        ((None, 3), (300, None), "blunder"),  # a mate thrown away for a small edge
        ((200, None), (None, -2), "blunder"),  # a forced mate allowed from an even position
        ((None, 2), (None, -3), "blunder"),  # from mating to being mated: "cp or zero" is 0
        ((None, 2), (None, 6), None),  # a slower mate is no verdict on Lichess
        ((None, -6), (None, -2), None),  # nor is a faster defeat
        ((50, None), (None, 4), None),  # finding a mate
        ((30, None), (-20, None), None),  # 0.046 of winning chances lost: below 0.1
    ],
)
def test_it_judges_moves_like_lichess(before, after, verdict):
    assert lichess_judgement(before[0], before[1], after[0], after[1]) == verdict


def test_d2_the_capped_drop_alone_would_call_plus_1500_to_plus_700_good():
    # Win% is computed on ceiled cp (4.6 points lost), Lichess's judgement on raw cp (0.133 of
    # winning chances lost, past the 0.1 inaccuracy threshold)
    drop = win_percent(1500) - win_percent(700)
    assert drop == pytest.approx(4.6051, abs=1e-4)
    assert winning_chances(1500) - winning_chances(700) == pytest.approx(0.13325, abs=1e-5)
    assert classify(drop, is_engine_top=False) == "good"
    assert (
        classify(drop, is_engine_top=False, judgement=lichess_judgement(1500, None, 700, None))
        == "inaccuracy"
    )


@pytest.mark.parametrize(
    "after,verdict",
    [
        (-54, None),
        (-55, "inaccuracy"),
        (-110, "inaccuracy"),
        (-111, "mistake"),
        (-168, "mistake"),
        (-169, "blunder"),
    ],
)
def test_the_thresholds_on_either_side(after, verdict):
    # from 0 cp, -54 loses 0.0991 of winning chances and -55 loses 0.1009; -110 / -111 and
    # -168 / -169 straddle 0.2 and 0.3
    assert lichess_judgement(0, None, after, None) == verdict


def test_d4_acpl_caps_a_loss_at_2000_and_rounds_the_mean():
    assert cp_loss(1000, -1000) == 2000  # mate for the mover -> mated: 1000 - (-1000)
    losses = [2000, 0, 3]
    assert acpl(losses) == 668  # 667.67 rounds to 668
    assert acpl([0, 1]) == 1  # 0.5 rounds half up, like Java's Math.round


def test_d5_the_series_starts_from_15_cp_whatever_the_engine_says_of_the_start():
    assert INITIAL_CP == 15
    # White's first move keeps +15: no Win% lost, accuracy 100, whatever the engine would have
    # said about the start position
    assert game_accuracy([15, 15])["white"] == pytest.approx(100.0)
    # a first move to -200 is judged from 15 cp (Win% 51.38): 42.9356, where the engine's
    # own view of the start (say +30) would have given a different number
    assert game_accuracy([-200, -200])["white"] == pytest.approx(42.9356, abs=1e-4)
    assert move_accuracy(win_percent(30), win_percent(-200)) != pytest.approx(42.9356, abs=1e-2)
