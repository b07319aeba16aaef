"""The formulas, pinned on values computed by hand (bc -l, scale=20) from the published constants."""

from __future__ import annotations

import pytest

from games.chess.formulas import (
    acpl,
    clamp_cp,
    classify,
    cp_loss,
    harmonic_mean,
    move_accuracy,
    percentile_rank,
    win_percent,
)


def test_it_maps_centipawns_to_win_percent():
    assert win_percent(0) == 50.0
    assert win_percent(100) == pytest.approx(59.102589719161, abs=1e-9)
    assert win_percent(-300) == pytest.approx(24.887449906165, abs=1e-9)
    assert win_percent(1000) == pytest.approx(97.544743634143, abs=1e-9)


def test_it_clamps_centipawns_and_counts_mate_as_1000():
    assert win_percent(5000) == win_percent(1000)
    assert win_percent(-5000) == pytest.approx(100 - 97.544743634143, abs=1e-9)
    assert clamp_cp(None, mate=3) == 1000
    assert clamp_cp(None, mate=-2) == -1000
    assert clamp_cp(None, mate=0) == -1000  # the side to move is mated
    assert clamp_cp(1234) == 1000 and clamp_cp(-77) == -77


def test_it_gives_lichess_move_accuracy():
    # 103.1668100711649 * exp(-0.04354415386753951 * 10) - 3.166924740191411 + 1
    assert move_accuracy(60, 50) == pytest.approx(64.579828453721, abs=1e-9)
    assert move_accuracy(70, 50) == pytest.approx(41.016818741417, abs=1e-9)
    assert move_accuracy(50, 50) == 100.0
    assert move_accuracy(40, 45) == 100.0  # no drop
    assert move_accuracy(90, 10) == pytest.approx(1.000170640274, abs=1e-9)
    assert move_accuracy(100, 0) == 0.0  # clamped at 0


@pytest.mark.parametrize(
    "drop,expected",
    [
        (0.0, "best"),
        (0.49, "best"),
        (0.5, "excellent"),
        (1.99, "excellent"),
        (2.0, "good"),
        (4.99, "good"),
        (30.0, "good"),  # Podium's classes never call a move worse than good
    ],
)
def test_it_gives_unjudged_moves_podiums_own_classes(drop, expected):
    assert classify(drop, is_engine_top=False) == expected


def test_a_lichess_verdict_overrides_podiums_classes_except_for_the_engine_move():
    assert classify(0.0, is_engine_top=False, judgement="mistake") == "mistake"
    assert classify(3.0, is_engine_top=True) == "best"


def test_it_caps_centipawn_loss_at_2000_and_rounds_the_mean_like_lichess():
    assert cp_loss(50, -30) == 80
    assert cp_loss(1000, -1000) == 2000
    assert cp_loss(5000, -5000) == 2000  # each side ceiled at 1000 first
    assert cp_loss(-20, 10) == 0  # a move never loses negative centipawns
    assert acpl([80, 0, 1000]) == 360
    assert acpl([1, 2]) == 2  # 1.5 rounds half up (Java Math.round)
    assert acpl([1, 1, 2]) == 1  # 1.33
    assert acpl([]) is None


def test_it_ranks_moves_with_shared_ties():
    values = [100, 50, 50, 0, -200]
    assert percentile_rank(100, values) == 100.0
    assert percentile_rank(-200, values) == 0.0
    # beats 0 and -200, ties with one other 50: (2 + 0.5) / 4
    assert percentile_rank(50, values) == pytest.approx(62.5)
    assert percentile_rank(7, [7]) == 100.0
    assert percentile_rank(3, [3, 3, 3]) == 50.0


def test_harmonic_mean_counts_values_below_one_as_one():
    assert harmonic_mean([1, 4, 4]) == pytest.approx(2.0)
    assert harmonic_mean([50, 0]) == pytest.approx(2 / (1 / 50 + 1))
