"""Stockfish strength levels, rated from real games against a fixed anchor, come out in the
order of their UCI_Elo settings (the wider round robin is bench/chess_elo_levels.py)."""

from __future__ import annotations

import chess
import pytest

from games.chess.elo import Opponents, Record, rate
from games.chess.engine import SearchLimit
from games.chess.match import game_over, play_game, score_for

ANCHOR = 1800
GAMES = 6


@pytest.mark.slow
def test_weaker_settings_get_lower_estimates(engine):
    limit = SearchLimit(nodes=5000)
    estimates = {}
    for level in (1350, 2400):
        points = []
        for g in range(GAMES):
            me = lambda b, e=level: engine.play(b, elo=e, limit=limit)
            anchor = lambda b: engine.play(b, elo=ANCHOR, limit=limit)
            white = g % 2 == 0
            rec = play_game(me, anchor) if white else play_game(anchor, me)
            points.append(score_for(rec.result, white))
        record = Record("anchor", points.count(1.0), points.count(0.5), points.count(0.0))
        estimates[level] = rate([record], Opponents.fixed({"anchor": ANCHOR}))
    print({lv: (round(e.elo), e.points) for lv, e in estimates.items()})
    assert estimates[1350].elo < estimates[2400].elo


def test_game_end_rules():
    board = chess.Board()
    assert game_over(board) is None
    assert game_over(chess.Board("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")) == ("1-0", "checkmate")
    for _ in range(2):  # knights out and back twice: threefold repetition is claimed at once
        for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
            board.push_uci(uci)
    assert game_over(board) == ("1/2-1/2", "threefold_repetition")
    long_game = chess.Board()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
        long_game.push_uci(uci)
    assert game_over(long_game, max_moves=2) == ("1/2-1/2", "move_limit")


def test_an_illegal_move_loses():
    rec = play_game(lambda b: chess.Move.from_uci("e2e5"), lambda b: next(iter(b.legal_moves)))
    assert rec.result == "0-1" and rec.reason == "illegal_move"
