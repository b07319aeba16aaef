"""bench/schedule_bound.py: the zero-overhead makespan campaign.py compares its wall time with,
on constructed latencies whose schedule can be worked out by hand."""

from __future__ import annotations

import math
import random

import pytest

from bench.schedule_bound import chains_from_log, list_schedule


def test_it_schedules_independent_calls_greedily_in_arrival_order():
    # 3 slots: 4, 3, 2 start at 0; the 1 takes the slot freed at 2 (ends 3); the 5 takes a
    # slot freed at 3 and ends at 8
    assert list_schedule([[4], [3], [2], [1], [5]], 3) == 8


def test_it_keeps_arrival_order_rather_than_the_best_order():
    assert list_schedule([[1], [1], [5]], 2) == 6  # the long call arrives last
    assert list_schedule([[5], [1], [1]], 2) == 5


def test_it_runs_a_chain_one_call_after_another():
    assert list_schedule([[1, 1, 1], [5]], 2) == 5
    # one slot: the chain's second call becomes ready at 1, behind the 5 that was ready at 0
    assert list_schedule([[1, 1, 1], [5]], 1) == 8
    assert list_schedule([[2.5] * 10], 256) == 25


def test_it_matches_rounds_of_a_constant_latency():
    for n, cap in [(1, 1), (256, 256), (257, 256), (400, 256), (2008, 256)]:
        assert list_schedule([[5.0]] * n, cap) == pytest.approx(math.ceil(n / cap) * 5.0)


def test_it_is_never_below_the_issues_ideal():
    rng = random.Random(7)
    latencies = [rng.lognormvariate(math.log(5) - 0.25**2 / 2, 0.25) for _ in range(400)]
    fluid = sum(latencies) / 256
    assert list_schedule([[x] for x in latencies], 256) >= max(fluid, max(latencies))


def test_it_refuses_no_slots_and_negative_latencies():
    with pytest.raises(ValueError, match="slots"):
        list_schedule([[1]], 0)
    with pytest.raises(ValueError, match="negative"):
        list_schedule([[1, -1]], 2)


def test_it_rebuilds_chains_from_the_call_log():
    # server log in arrival order: game A turn 1, sample x, game B turn 1, sample x again,
    # game A turn 2, and a call no chain claims
    latencies = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    prints = ["a1", "x", "b1", "x", "a2", "stray"]
    chains, missing = chains_from_log(
        latencies, prints, [["a1", "a2"], ["x"], ["b1", "b-lost"], ["x"]]
    )
    assert chains == [[1.0, 5.0], [2.0], [3.0], [4.0], [6.0]]
    assert missing == 1
    with pytest.raises(ValueError, match="differ in length"):
        chains_from_log([1.0], [], [])
