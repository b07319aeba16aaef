from __future__ import annotations

import pytest

from games.chess.engine import EngineNotFoundError, find_stockfish
from tests.requirements import require


@pytest.fixture(autouse=True)
def _stockfish(monkeypatch):
    try:
        find_stockfish()
    except EngineNotFoundError:
        require(False, "Stockfish binary (Debian package stockfish)")
    # the in-process analysis cache, so these tests never depend on what Redis holds
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("PODIUM_CHESS_CACHE_URL", raising=False)
