"""ctx.finished as the worker builds it: two details fields of the run's finished items, read
as JSON keys in the database (what the adaptive chess ladder asks for)."""

from __future__ import annotations

import pytest

from evaluators.chess.rating import records
from jobs.models import ItemResult
from jobs.runner import _finished_reader
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_it_reads_the_opponent_and_points_of_finished_games_only():
    run = f.run(f.model("m"), f.benchmark("chess/games-ladder", "chess"), None)
    f.item(
        run,
        "ladder#000",
        state=ItemResult.State.DONE,
        details={"opponent": "stockfish-elo-2000", "points": 0.5, "moves": [{"big": "x" * 1000}]},
    )
    f.item(
        run,
        "ladder#001",
        state=ItemResult.State.DONE,
        details={"opponent": "stockfish-elo-2000", "points": 0.0},
    )
    f.item(run, "ladder#002", state=ItemResult.State.RUNNING, details={})
    rows = _finished_reader(run.pk)(("opponent", "points"))
    assert sorted(rows, key=lambda r: r["points"]) == [
        {"opponent": "stockfish-elo-2000", "points": "0.0"},
        {"opponent": "stockfish-elo-2000", "points": "0.5"},
    ]
    [rec] = records(rows)
    assert (rec.opponent, rec.wins, rec.draws, rec.losses) == ("stockfish-elo-2000", 0, 1, 1)
