"""Per-opponent W/D/L in a games run's metrics, and the W/D/L value they are counted with."""

from __future__ import annotations

import typing

import pytest

from evaluators.base import StoredOutcome
from evaluators.chess.aggregate import aggregate
from evaluators.chess.metrics import OpponentResult
from games.chess.elo import WDL, Record
from games.chess.ladder import PairRecord


def _game(i: int, opponent: str, points: float, elo: float | None = None) -> StoredOutcome:
    details = {"opponent": opponent, "points": points, "moves": [], "opponent_elo": elo}
    return StoredOutcome(f"{opponent}#{i:03d}", 0, "done", points, {}, details)


def test_it_keeps_wins_draws_and_losses_per_opponent():
    games = [
        _game(0, "other", 1.0, 1500),
        _game(1, "other", 0.5, 1500),
        _game(2, "other", 0.0, 1500),
        _game(3, "other", 1.0, 1500),
        _game(0, "random", 1.0),
        _game(1, "random", 1.0),
    ]
    failed = StoredOutcome("random#002", 0, "failed", None, {}, {})
    config = {"task": "games", "opponents": [{"name": "other", "elo": 1500, "elo_given": True}]}
    m = aggregate(config, [*games, failed])
    assert m["by_opponent"] == {
        "other": {"games": 4, "points": 2.5, "wins": 2, "draws": 1, "losses": 1, "elo": 1500},
        "random": {"games": 2, "points": 2.0, "wins": 2, "draws": 0, "losses": 0, "elo": None},
    }
    assert (m["wins"], m["draws"], m["losses"], m["games"]) == (4, 1, 1, 6)
    declared = typing.get_type_hints(OpponentResult)
    assert all(set(d) <= set(declared) for d in m["by_opponent"].values())
    # the rated pairing carries the same counts as by_opponent
    [other] = [p for p in m["pairings"] if p["opponent"] == "other"]
    assert (other["wins"], other["draws"], other["losses"]) == (2, 1, 1)


def test_wdl_counts_points_and_rejects_a_score_that_is_no_game_result():
    assert WDL.of_points([1.0, 0.5, 0.5, 0.0, 1.0]) == WDL(2, 2, 1)
    assert (WDL(2, 2, 1).games, WDL(2, 2, 1).points) == (5, 3.0)
    with pytest.raises(ValueError, match="0.75"):
        WDL.of_points([1.0, 0.75])


def test_a_ladder_pair_and_an_opponent_record_are_both_wdl():
    pair, rec = PairRecord("a", "b", 3, 1, 2), Record("b", wins=3, draws=1, losses=2)
    assert isinstance(pair, WDL) and isinstance(rec, WDL)
    assert (pair.games, pair.points) == (rec.games, rec.points) == (6, 3.5)
    assert pair.counts() == rec.counts() == {"wins": 3, "draws": 1, "losses": 2}
