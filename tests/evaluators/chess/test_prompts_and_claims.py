from __future__ import annotations

import chess
import pytest

from evaluators.chess.claims import extract_claims
from evaluators.chess.prompts import AnswerError, parse_move, parse_move_list, split_reply

START = chess.Board()
ITALIAN = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")


@pytest.mark.parametrize(
    "reply,uci",
    [
        ("I like the centre.\nFinal answer: e4", "e2e4"),
        ("**Final Answer:** Nf3.", "g1f3"),
        ("final answer: 1. e2e4", "e2e4"),
        ("Final answer: e4\nFinal answer: d4", "d2d4"),  # the last marker wins
        ("Final answer: `g1f3`", "g1f3"),
    ],
)
def test_it_reads_san_or_uci_after_the_last_marker(reply, uci):
    assert parse_move(START, reply).uci() == uci


@pytest.mark.parametrize(
    "reply,kind",
    [
        ("e4 is best", "unparseable"),  # no marker
        ("Final answer:", "unparseable"),
        ("Final answer: the king's pawn", "unparseable"),
        ("Final answer: Qxz9", "unparseable"),
        ("Final answer: Ke2", "illegal"),
        ("Final answer: e2e5", "illegal"),
        ("Final answer: e5", "illegal"),
    ],
)
def test_parse_failures_are_told_apart_from_illegal_moves(reply, kind):
    with pytest.raises(AnswerError) as exc:
        parse_move(START, reply)
    assert exc.value.kind == kind


def test_an_ambiguous_move_is_illegal():
    board = chess.Board("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(AnswerError, match="ambiguous") as exc:
        parse_move(board, "Final answer: Rd1")
    assert exc.value.kind == "illegal"


def test_legal_move_lists_accept_san_uci_and_squares():
    # g1e2 is not legal (a pawn stands there) and Nc3 is another knight's move: both count
    # against the IoU; "xyz" is not notation at all
    moves, bad = parse_move_list(START, "Final answer: Nf3, h3, g1e2, Nc3, xyz", chess.G1)
    assert moves == {"g1f3", "g1h3", "g1e2", "b1c3"}
    assert bad == ["xyz"]
    assert parse_move_list(START, "Final answer: none", chess.A1) == (set(), [])


def test_split_reply():
    s = split_reply("I think Nf3.\nFinal answer: Nf3")
    assert s.reasoning == "I think Nf3.\n" and s.answer == "Nf3"


def claims(text, board=ITALIAN):
    return [(c.kind, c.text, c.true, c.in_variation) for c in extract_claims(text, board)]


def test_piece_claims_are_checked_against_the_position():
    assert claims(
        "The knight on f3 attacks e5. The bishop on c4 is strong. Black's queen on d8 waits."
    ) == [
        ("piece", "knight on f3", True, False),
        ("piece", "bishop on c4", False, False),
        ("piece", "Black's queen on d8", True, False),
    ]
    assert claims("White's knight on c6 is pinned.") == [
        ("piece", "White's knight on c6", False, False)
    ]


def test_moves_in_a_variation_are_checked_in_the_variation():
    # Bb5 is legal now; a6, Ba4, Nf6 are legal only inside the line; the bishop reaches a4
    got = claims("After 3. Bb5 a6 4. Ba4 Nf6 the bishop on a4 pins the knight.")
    assert got == [
        ("move", "Bb5", True, False),
        ("move", "a6", True, True),
        ("move", "Ba4", True, True),
        ("move", "Nf6", True, True),
        ("piece", "bishop on a4", True, True),
    ]


def test_a_false_move_ends_its_variation_and_the_rest_is_left_out():
    got = claims("Qxf7 Kxf7 Ng5 wins.")
    assert got == [("move", "Qxf7", False, False)]


def test_threats_of_the_other_side_and_illegal_moves():
    assert claims("Black threatens ...Nd4 here.") == [("move", "Nd4", True, False)]
    assert claims("I could play Qh5 or Bb5.") == [
        ("move", "Qh5", False, False),
        ("move", "Bb5", True, False),
    ]
    # the pawn already stands on e4: e2e4 is not a move in this position
    assert claims("e2e4 is natural.") == [("move", "e2e4", False, False)]


def test_bare_squares_are_not_moves_outside_a_variation():
    assert claims("The pawn on e4 controls d5.") == [("piece", "pawn on e4", True, False)]
