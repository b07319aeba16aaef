"""Shared chess test fixtures: a real Stockfish process per test module."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.chess.engine import EngineNotFoundError, find_stockfish
from tests.requirements import require

ROOT = Path(__file__).resolve().parents[3]


def shared_data() -> Path:
    return Path(os.environ.get("PODIUM_SHARED_DATA", ROOT / ".." / "shared" / "data"))


PUZZLE_SAMPLE = shared_data() / "lichess" / "lichess_puzzles_sample_2k.csv"


def _stockfish_found() -> bool:
    try:
        find_stockfish()
        return True
    except EngineNotFoundError:
        return False


@pytest.fixture(scope="module")
def engine():
    require(_stockfish_found(), "Stockfish binary (Debian package stockfish)")
    from games.chess.engine import Engine

    e = Engine()
    yield e
    e.close()


@pytest.fixture
def puzzle_sample() -> Path:
    require(PUZZLE_SAMPLE.is_file(), f"Lichess puzzle sample at {PUZZLE_SAMPLE}")
    return PUZZLE_SAMPLE
