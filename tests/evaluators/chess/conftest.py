from __future__ import annotations

import dataclasses

import pytest

from evaluators import config as evaluators_config
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
    monkeypatch.setattr(
        evaluators_config,
        "_configured",
        dataclasses.replace(evaluators_config.current(), chess_cache_url=None),
    )
