"""The hallucination checker on the labelled corpus (tests/evaluators/chess/claims_corpus.py).

A "positive" is a false claim: precision is the share of claims the checker calls false that
are false, recall the share of false claims it calls false. A claim the checker extracts that
the corpus does not list counts against precision if called false; a listed claim it misses
counts against recall if false.
"""

from __future__ import annotations

from collections import Counter

import chess
import pytest

from evaluators.chess.claims import extract_claims
from tests.evaluators.chess.claims_corpus import CORPUS, HELD_OUT, POSITIONS, labels

FAILURE_SHAPES = ("earlier_move", "later_sentence", "plan", "negation", "suffix")


def score(entries):
    tp = fp = fn = 0
    for entry in entries:
        got = [
            (c.kind, c.text.lower(), c.true) for c in extract_claims(entry[2], POSITIONS[entry[0]])
        ]
        for kind, text, true in labels(entry):
            match = next((g for g in got if g[:2] == (kind, text.lower())), None)
            if match is None:
                fn += not true
                continue
            got.remove(match)
            tp += (not true) and (not match[2])
            fn += (not true) and match[2]
            fp += true and (not match[2])
        fp += sum(1 for g in got if not g[2])
    return tp, fp, fn


def test_the_corpus_is_large_enough_and_covers_every_shape_both_ways():
    all_labels = [(e[1], true) for e in CORPUS + HELD_OUT for _, _, true in labels(e)]
    assert len(all_labels) >= 200
    counts = Counter(all_labels)
    for shape in FAILURE_SHAPES + ("piece", "piece_negation", "alternative", "threat", "line"):
        assert counts[(shape, True)] > 0 and counts[(shape, False)] > 0, shape


@pytest.mark.parametrize(
    "entries", [CORPUS, HELD_OUT, CORPUS + HELD_OUT], ids=["corpus", "held_out", "all"]
)
def test_the_checker_reaches_the_required_precision_and_recall(entries):
    tp, fp, fn = score(entries)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert precision >= 0.95 and recall >= 0.9, (tp, fp, fn)


@pytest.mark.parametrize("shape", FAILURE_SHAPES)
def test_each_failure_of_the_old_checker_is_fixed(shape):
    entries = [e for e in CORPUS + HELD_OUT if e[1] == shape]
    tp, fp, fn = score(entries)
    assert fp == 0 and fn == 0 and tp > 0


def test_lines_written_as_all_legal_really_are_legal():
    # an independent check of the labels: replay every all-true move line with python-chess
    checked = 0
    for pos, shape, text, _ in CORPUS + HELD_OUT:
        lab = labels((pos, shape, text, _))
        if shape != "line" or not all(t for _, _, t in lab) or any(k == "piece" for k, _, _ in lab):
            continue
        board = POSITIONS[pos].copy()
        for _, san, _ in lab:
            try:
                board.push(board.parse_san(san))
            except (
                chess.AmbiguousMoveError
            ):  # "Nf3" with two knights able to go: legal, under-specified
                board.push(
                    next(
                        m
                        for m in board.legal_moves
                        if chess.square_name(m.to_square) == san[-2:]
                        and board.piece_type_at(m.from_square) == chess.KNIGHT
                    )
                )
        checked += 1
    assert checked >= 25


def test_a_plus_or_hash_is_verified():
    board = POSITIONS["SCHOLAR"]
    assert [c.true for c in extract_claims("Qxf7# wins.", board)] == [True]
    assert [c.true for c in extract_claims("Bxf7# wins.", board)] == [False]  # check, not mate
    assert [c.true for c in extract_claims("Nf3+ is check.", chess.Board())] == [False]
