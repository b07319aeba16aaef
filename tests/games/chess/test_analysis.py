"""Move scoring and classes on known positions, with the real engine."""

from __future__ import annotations

import chess
import pytest

from games.chess.analysis import Analyzer
from games.chess.cache import MemoryAnalysisCache

# White: Ra1, Kg1, pawns f2 g2 h2; Black: Kg8, pawns f7 g7 h7 and a queen on b2. Ra8 mates;
# anything else leaves White a queen for a rook down.
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/1q3PPP/R5K1 w - - 0 1"


def test_a_missed_mate_in_one_is_a_blunder_and_the_mate_is_best(engine):
    a = Analyzer(engine)
    board = chess.Board(MATE_IN_ONE)
    mate = a.score_move(board, chess.Move.from_uci("a1a8"), with_percentile=True)
    assert (mate.move_class, mate.is_engine_top, mate.drop, mate.accuracy) == (
        "best",
        True,
        0.0,
        100.0,
    )
    assert mate.cp_best == 1000 and mate.percentile == 100.0
    miss = a.score_move(board, chess.Move.from_uci("h2h3"), with_percentile=True)
    assert miss.move_class == "blunder" and miss.drop >= 15
    assert miss.cp_loss > 500 and miss.accuracy < 20
    assert miss.percentile is not None and miss.percentile < 100


def test_the_engine_move_is_best_in_the_opening(engine):
    a = Analyzer(engine)
    board = chess.Board()
    top = chess.Move.from_uci(a.best(board).best_move)
    s = a.score_move(board, top)
    assert s.move_class == "best" and s.cp_loss == 0 and s.accuracy == 100.0
    assert a.score_move(board, chess.Move.from_uci("g2g4")).move_class != "best"


def test_scoring_reuses_the_best_search_and_adds_one_restricted_search(engine):
    cache = MemoryAnalysisCache()
    a = Analyzer(engine, cache)
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    best = chess.Move.from_uci(a.best(board).best_move)
    assert a.searches == 1
    a.score_move(board, best)
    assert a.searches == 1  # the engine's own move costs nothing more
    other = next(m for m in board.legal_moves if m != best)
    a.score_move(board, other)
    assert a.searches == 2
    a.score_move(board, other)
    assert a.searches == 2  # cached
    # a second analyzer over the same cache never runs the engine
    b = Analyzer(engine, cache)
    assert b.score_move(board, other) == a.score_move(board, other) and b.searches == 0


def test_an_illegal_move_cannot_be_scored(engine):
    with pytest.raises(ValueError, match="not legal"):
        Analyzer(engine).score_move(chess.Board(), chess.Move.from_uci("e2e5"))
