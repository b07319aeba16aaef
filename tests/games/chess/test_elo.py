from __future__ import annotations

import math

import pytest

from games.chess.elo import GameResult, estimate_elo, expected_score


def test_expected_score():
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(1 / 1.1)


def test_an_even_score_gives_the_opponent_rating_with_fisher_interval():
    est = estimate_elo([GameResult(1500, 1.0), GameResult(1500, 0.0)])
    assert est.elo == pytest.approx(1500, abs=1e-6)
    # three games (with the virtual draw) at E=0.5: se = 1 / sqrt(3 * (ln10/400)^2 / 4) = 200.59
    assert est.se == pytest.approx(1 / math.sqrt(3 * (math.log(10) / 400) ** 2 * 0.25))
    assert est.se == pytest.approx(200.59, abs=0.01)
    assert est.ci95 == pytest.approx((1500 - 1.96 * est.se, 1500 + 1.96 * est.se))
    assert est.games == 2 and est.score_rate == 0.5


def test_all_wins_stay_finite_thanks_to_the_virtual_draw():
    est = estimate_elo([GameResult(1500, 1.0), GameResult(1500, 1.0)])
    # 2.5 points of 3 -> E = 5/6 -> elo = 1500 + 400 log10(5)
    assert est.elo == pytest.approx(1500 + 400 * math.log10(5), abs=1e-6)


def test_more_points_means_a_higher_estimate():
    opps = [1350, 1800, 2200]
    weak = estimate_elo([GameResult(o, s) for o, s in zip(opps, [0.5, 0, 0])])
    strong = estimate_elo([GameResult(o, s) for o, s in zip(opps, [1, 1, 0.5])])
    assert weak.elo < strong.elo


def test_it_rejects_bad_input():
    with pytest.raises(ValueError):
        estimate_elo([])
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        estimate_elo([GameResult(1500, 0.7)])


def test_joint_fit_orders_a_round_robin_by_score_and_is_centred():
    from games.chess.elo import fit_ratings

    # a beats b twice, b beats c twice, a and c draw once
    games = [("a", "b", 1.0), ("a", "b", 1.0), ("b", "c", 1.0), ("b", "c", 1.0), ("a", "c", 0.5)]
    r = fit_ratings(games, mean_elo=2000)
    assert r["a"] > r["b"] > r["c"]
    assert sum(r.values()) / 3 == pytest.approx(2000)
    # two players, 3 wins of 4 plus each one virtual draw with the phantom: symmetric about the mean
    two = fit_ratings([("x", "y", 1.0)] * 3 + [("x", "y", 0.0)], mean_elo=1500)
    assert two["x"] - 1500 == pytest.approx(1500 - two["y"])
    assert two["x"] > two["y"]
