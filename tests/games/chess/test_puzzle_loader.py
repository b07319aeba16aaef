"""The Lichess CSV loader: the real sample loads; every kind of bad input names its place."""

from __future__ import annotations

import pytest

from games.chess.puzzles import COLUMNS, PuzzleFormatError, load_puzzles

HEADER = ",".join(COLUMNS)
# Black pushes c7-c6, then Ra8 is mate.
GOOD = (
    "t0001,6k1/2p2ppp/8/8/8/8/5PPP/R5K1 b - - 0 1,c7c6 a1a8,600,80,90,100,mate mateIn1,https://x/1,"
)


def write(tmp_path, *rows, header=HEADER, encoding="utf-8", name="p.csv"):
    p = tmp_path / name
    p.write_bytes(("\n".join(([header] if header else []) + list(rows)) + "\n").encode(encoding))
    return p


def test_the_shared_sample_loads(puzzle_sample):
    puzzles = load_puzzles(puzzle_sample)
    assert len(puzzles) > 1900
    assert len({p.id for p in puzzles}) == len(puzzles)
    p = puzzles[0]
    assert p.start_board().fen() != p.fen  # the opponent's set-up move is played
    assert all(len(p.moves) % 2 == 0 for p in puzzles)


def test_a_good_row(tmp_path):
    [p] = load_puzzles(write(tmp_path, GOOD))
    assert p.id == "t0001" and p.rating == 600 and p.solver_moves == ("a1a8",)
    assert p.themes == ("mate", "mateIn1") and p.opening_tags == ()


def test_a_file_without_header_is_read_in_lichess_column_order(tmp_path):
    [p] = load_puzzles(write(tmp_path, GOOD, header=None))
    assert p.id == "t0001"


@pytest.mark.parametrize(
    "row,message",
    [
        (
            GOOD.replace("6k1/2p2ppp/8", "6k1/2p2ppp/9"),
            r"p\.csv:3 \(puzzle t0001\): field FEN is not a valid FEN",
        ),
        (GOOD.replace("R5K1 b", "R5KK b"), "field FEN is not a legal position"),
        (GOOD.replace("c7c6 a1a8", "c7c6 a1a9"), "field Moves, move 2 'a1a9' is not UCI"),
        (GOOD.replace("c7c6 a1a8", "c7c6 a1b8"), "field Moves, move 2 'a1b8' is illegal"),
        (GOOD.replace("c7c6 a1a8", "c7c6"), "field Moves needs the set-up move"),
        (GOOD.replace(",600,", ",six hundred,"), "field Rating is not an integer: 'six hundred'"),
        (GOOD.replace("t0001", ""), "field PuzzleId is empty"),
    ],
)
def test_bad_rows_name_file_line_puzzle_and_field(tmp_path, row, message):
    path = write(tmp_path, GOOD.replace("t0001", "ok1"), row)
    with pytest.raises(PuzzleFormatError, match=message) as exc:
        load_puzzles(path)
    assert "p.csv:3" in str(exc.value)  # the bad row is the second data row


def test_missing_columns(tmp_path):
    with pytest.raises(PuzzleFormatError, match=r"p\.csv:1: missing column\(s\) \['Moves'\]"):
        load_puzzles(write(tmp_path, GOOD, header="PuzzleId,FEN,Rating"))


def test_wrong_encoding_is_named(tmp_path):
    path = write(tmp_path, GOOD.replace("mateIn1", "mateIn1 caf\u00e9"), encoding="latin-1")
    with pytest.raises(PuzzleFormatError, match=r"p\.csv:2: not UTF-8"):
        load_puzzles(path)


def test_duplicates_empty_and_missing_files(tmp_path):
    with pytest.raises(PuzzleFormatError, match="duplicate PuzzleId 't0001'"):
        load_puzzles(write(tmp_path, GOOD, GOOD))
    with pytest.raises(PuzzleFormatError, match="empty puzzle file"):
        load_puzzles(_empty(tmp_path))
    with pytest.raises(PuzzleFormatError, match="nope.csv: puzzle file not found"):
        load_puzzles(tmp_path / "nope.csv")


def _empty(tmp_path):
    p = tmp_path / "e.csv"
    p.write_bytes(b"")
    return p


def test_too_many_fields(tmp_path):
    with pytest.raises(PuzzleFormatError, match=r"p\.csv:2: 12 fields, expected 10"):
        load_puzzles(write(tmp_path, GOOD + ",extra,more"))


def test_a_rating_range_and_limit_select_a_subset(puzzle_sample):
    hard = load_puzzles(puzzle_sample, min_rating=2000, limit=10)
    assert len(hard) == 10 and all(p.rating >= 2000 for p in hard)
    band = load_puzzles(puzzle_sample, min_rating=1000, max_rating=1099)
    assert band and all(1000 <= p.rating <= 1099 for p in band)


def test_rows_outside_the_range_are_not_parsed_but_their_rating_must_be_a_number(tmp_path):
    broken_easy = (
        GOOD.replace("t0001", "easy").replace(",600,", ",300,").replace("c7c6 a1a8", "c7c6 a1b8")
    )
    path = write(tmp_path, broken_easy, GOOD)
    assert [p.id for p in load_puzzles(path, min_rating=500)] == ["t0001"]
    with pytest.raises(PuzzleFormatError, match="field Moves"):
        load_puzzles(path)
    with pytest.raises(
        PuzzleFormatError, match=r"p\.csv:2 \(puzzle easy\): field Rating is not an integer"
    ):
        load_puzzles(write(tmp_path, broken_easy.replace(",300,", ",low,"), GOOD), min_rating=500)
