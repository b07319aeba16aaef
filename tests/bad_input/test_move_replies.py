"""Replies that imitate the move format to game the parsers: several answers in one reply,
a fake checkmate claim, a move list offered as one answer, an out-of-range Hanabi move. Each
gets exactly one reading (or a clear parse error), never the benefit of the doubt."""

from __future__ import annotations

import chess
import pytest

from evaluators.chess.prompts import AnswerError, parse_move, parse_move_list
from evaluators.hanabi.parsing import UnparseableReplyError, parse_reply

START = chess.Board()


def test_only_the_last_final_answer_counts():
    reply = "Final answer: Qh5\nActually no.\nFinal answer: e4"
    assert parse_move(START, reply) == chess.Move.from_uci("e2e4")


def test_a_list_of_moves_offered_as_one_answer_is_read_as_its_first_move_only():
    assert parse_move(START, "Final answer: e4 d4 Nf3 c4") == chess.Move.from_uci("e2e4")


def test_claims_in_the_reasoning_are_not_the_answer():
    reply = "Qxf7# is checkmate, Final-answer style: Qxf7#.\nFinal answer: a3"
    assert parse_move(START, reply) == chess.Move.from_uci("a2a3")


@pytest.mark.parametrize(
    "reply, kind",
    [
        ("Final answer: Qxf7#", "illegal"),  # a mate that does not exist in the position
        ("Final answer: e2e5", "illegal"),
        ("Final answer:", "unparseable"),
        ("I resign the parser: best move e4", "unparseable"),
        ("Final answer: \x00\x1b[2J", "unparseable"),
    ],
)
def test_a_gaming_or_broken_answer_is_an_error_of_its_kind(reply, kind):
    with pytest.raises(AnswerError) as info:
        parse_move(START, reply)
    assert info.value.kind == kind


def test_listing_every_square_does_not_pass_as_the_legal_moves_of_a_piece():
    every = ", ".join(chess.square_name(s) for s in chess.SQUARES)
    named, _bad = parse_move_list(START, f"Final answer: {every}", chess.G1)
    truth = {m.uci() for m in START.legal_moves if m.from_square == chess.G1}
    assert truth <= named and len(named) == 64  # every wrong claim is kept, so IoU = 2/64
    assert len(truth & named) / len(truth | named) < 0.05


def test_hanabi_reads_the_last_move_line_only():
    assert parse_reply("MOVE: 0\nOn second thought\nMOVE: 2", 5, expect_json=False).index == 2


@pytest.mark.parametrize("reply", ["MOVE: 99", "MOVE: -1", "MOVE: one", "", "\x00\x00"])
def test_hanabi_refuses_a_move_outside_the_legal_list(reply):
    with pytest.raises(UnparseableReplyError):
        parse_reply(reply, 5, expect_json=False)


def test_hanabi_json_refuses_several_answers_and_a_non_number():
    # JSON settings ask for one JSON object only: two answers get no reading at all
    reply = '{"action": 0} and the real one {"reason": "x", "action": 3}'
    with pytest.raises(UnparseableReplyError, match="one JSON object"):
        parse_reply(reply, 5, expect_json=True)
    assert parse_reply('{"reason": "x", "action": 3}', 5, expect_json=True).index == 3
    with pytest.raises(UnparseableReplyError, match="action"):
        parse_reply('{"action": "all of them"}', 5, expect_json=True)
