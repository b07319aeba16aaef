"""Lichess puzzles: the CSV loader, the solving rules and accuracy by rating band.

Lichess rules: the FEN is the position BEFORE the opponent's move that sets the puzzle up
(move 1 of ``Moves``); the solver plays moves 2, 4, ...; the opponent's replies are forced to the
listed ones. A solver move is right when it is the listed move or when it gives checkmate (any
mate counts, which matters most for mate-in-one puzzles with several mating moves). The puzzle is
solved when every solver move is right.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess

COLUMNS = (
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
)
REQUIRED = ("PuzzleId", "FEN", "Moves", "Rating")
RATING_BANDS: tuple[tuple[str, int, int], ...] = (
    ("<1000", 0, 1000),
    ("1000-1499", 1000, 1500),
    ("1500-1999", 1500, 2000),
    ("2000-2499", 2000, 2500),
    ("2500+", 2500, 10_000),
)


class PuzzleFormatError(ValueError):
    """A puzzle file or row is unusable; the message names the file, line, puzzle and field."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    fen: str
    moves: tuple[str, ...]  # UCI; moves[0] is the opponent's set-up move
    rating: int
    rating_deviation: int | None = None
    popularity: int | None = None
    nb_plays: int | None = None
    themes: tuple[str, ...] = ()
    game_url: str = ""
    opening_tags: tuple[str, ...] = ()

    @property
    def solver_moves(self) -> tuple[str, ...]:
        return self.moves[1::2]

    def start_board(self) -> chess.Board:
        """The position the solver faces: after the opponent's set-up move."""
        board = chess.Board(self.fen)
        board.push(chess.Move.from_uci(self.moves[0]))
        return board

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "fen": self.fen,
            "moves": list(self.moves),
            "rating": self.rating,
            "themes": list(self.themes),
            "game_url": self.game_url,
        }


def rating_band(rating: int) -> str:
    for name, lo, hi in RATING_BANDS:
        if lo <= rating < hi:
            return name
    return RATING_BANDS[-1][0] if rating >= RATING_BANDS[-1][1] else RATING_BANDS[0][0]


def _int_field(row: dict[str, str], field: str, where: str, *, required: bool) -> int | None:
    raw = (row.get(field) or "").strip()
    if not raw:
        if required:
            raise PuzzleFormatError(f"{where}: field {field} is empty")
        return None
    try:
        return int(raw)
    except ValueError:
        raise PuzzleFormatError(f"{where}: field {field} is not an integer: {raw!r}") from None


def parse_puzzle_row(row: dict[str, str], where: str) -> Puzzle:
    """One CSV row -> Puzzle; ``where`` (file:line) prefixes every error message."""
    pid = (row.get("PuzzleId") or "").strip()
    if not pid:
        raise PuzzleFormatError(f"{where}: field PuzzleId is empty")
    where = f"{where} (puzzle {pid})"
    fen = (row.get("FEN") or "").strip()
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise PuzzleFormatError(f"{where}: field FEN is not a valid FEN ({exc}): {fen!r}") from None
    if not board.is_valid():
        raise PuzzleFormatError(
            f"{where}: field FEN is not a legal position ({board.status()!r}): {fen!r}"
        )
    moves = tuple((row.get("Moves") or "").split())
    if len(moves) < 2:
        raise PuzzleFormatError(
            f"{where}: field Moves needs the set-up move and at least one solver move"
        )
    for i, uci in enumerate(moves, start=1):
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            raise PuzzleFormatError(
                f"{where}: field Moves, move {i} {uci!r} is not UCI notation"
            ) from None
        if move not in board.legal_moves:
            raise PuzzleFormatError(
                f"{where}: field Moves, move {i} {uci!r} is illegal in {board.fen()}"
            )
        board.push(move)
    rating = _int_field(row, "Rating", where, required=True)
    assert rating is not None
    return Puzzle(
        id=pid,
        fen=fen,
        moves=moves,
        rating=rating,
        rating_deviation=_int_field(row, "RatingDeviation", where, required=False),
        popularity=_int_field(row, "Popularity", where, required=False),
        nb_plays=_int_field(row, "NbPlays", where, required=False),
        themes=tuple((row.get("Themes") or "").split()),
        game_url=(row.get("GameUrl") or "").strip(),
        opening_tags=tuple((row.get("OpeningTags") or "").split()),
    )


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PuzzleFormatError(f"{path}: puzzle file not found") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PuzzleFormatError(
            f"{path}:{line}: not UTF-8 text (byte {exc.start}); the Lichess puzzle CSV is UTF-8 "
            f"(decompress .zst first)"
        ) from None


def iter_puzzle_rows(path: str | os.PathLike[str]) -> Iterable[tuple[str, dict[str, str]]]:
    """(file:line, row dict) for every data row. A header is used when present; a header-less
    file (older dumps) is read in the standard column order."""
    p = Path(path)
    reader = csv.reader(io.StringIO(_read_text(p), newline=""))
    try:
        first = next(reader)
    except StopIteration:
        raise PuzzleFormatError(f"{p}: empty puzzle file") from None
    except csv.Error as exc:
        raise PuzzleFormatError(f"{p}:1: not CSV ({exc})") from None
    if first and first[0].strip().lstrip("\ufeff") == "PuzzleId":
        header = [h.strip() for h in first]
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise PuzzleFormatError(f"{p}:1: missing column(s) {missing}; expected {list(COLUMNS)}")
        pending: list[list[str]] = []
    else:
        header = list(COLUMNS)
        pending = [first]
        if len(first) not in (len(COLUMNS) - 1, len(COLUMNS)):
            raise PuzzleFormatError(
                f"{p}:1: no header and {len(first)} fields; expected the columns {list(COLUMNS)}"
            )
    line = 1 if pending else 2

    def rows() -> Iterable[list[str]]:
        yield from pending
        try:
            yield from reader
        except csv.Error as exc:
            raise PuzzleFormatError(f"{p}:{reader.line_num}: malformed CSV ({exc})") from None

    for values in rows():
        where = f"{p}:{line}"
        line += 1
        if not values or all(not v.strip() for v in values):
            continue
        if len(values) > len(header) or len(values) < len(REQUIRED):
            raise PuzzleFormatError(f"{where}: {len(values)} fields, expected {len(header)}")
        yield where, dict(zip(header, values))


def load_puzzles(
    path: str | os.PathLike[str],
    *,
    limit: int | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> list[Puzzle]:
    """The puzzles of the file within the rating range (the first ``limit`` of them), or
    PuzzleFormatError at the first bad row: nothing is returned half-read. Reading stops at
    ``limit`` and rows outside the range are only checked for their rating, so a subset of the
    full Lichess database (millions of rows) loads quickly."""
    out: list[Puzzle] = []
    seen: set[str] = set()
    for where, row in iter_puzzle_rows(path):
        if min_rating is not None or max_rating is not None:
            pid = (row.get("PuzzleId") or "").strip()
            rating = _int_field(row, "Rating", f"{where} (puzzle {pid})", required=True)
            assert rating is not None
            if (min_rating is not None and rating < min_rating) or (
                max_rating is not None and rating > max_rating
            ):
                continue
        puzzle = parse_puzzle_row(row, where)
        if puzzle.id in seen:
            raise PuzzleFormatError(f"{where}: duplicate PuzzleId {puzzle.id!r}")
        seen.add(puzzle.id)
        out.append(puzzle)
        if limit is not None and len(out) >= limit:
            break
    return out


# --- solving -------------------------------------------------------------------------------

MoveChooser = Callable[[chess.Board], chess.Move]


@dataclass(frozen=True)
class PuzzleAttempt:
    solved: bool
    played: tuple[str, ...]  # the solver's moves, UCI
    failed_at: int | None  # index into solver_moves of the first wrong move


def solver_move_ok(board: chess.Board, expected: str, move: chess.Move) -> bool:
    """Right when it is the listed move, or any move that checkmates."""
    if move.uci() == expected:
        return True
    if move not in board.legal_moves:
        return False
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def solve_puzzle(puzzle: Puzzle, choose: MoveChooser) -> PuzzleAttempt:
    """Play the puzzle with ``choose`` as the solver (it gets a copy of the board)."""
    board = puzzle.start_board()
    played: list[str] = []
    for k, expected in enumerate(puzzle.solver_moves):
        move = choose(board.copy())
        played.append(move.uci())
        if not solver_move_ok(board, expected, move):
            return PuzzleAttempt(False, tuple(played), k)
        board.push(move)
        if board.is_checkmate():
            return PuzzleAttempt(True, tuple(played), None)
        reply_index = 2 * k + 2
        if reply_index < len(puzzle.moves):
            board.push(chess.Move.from_uci(puzzle.moves[reply_index]))
    return PuzzleAttempt(True, tuple(played), None)


def accuracy_by_band(results: Sequence[tuple[int, bool]]) -> dict[str, dict[str, float | int]]:
    """{band: {"n", "solved", "rate"}} from (rating, solved) pairs; bands with no puzzle are left out."""
    out: dict[str, dict[str, float | int]] = {}
    for name, _, _ in RATING_BANDS:
        members = [s for r, s in results if rating_band(r) == name]
        if members:
            solved = sum(1 for s in members if s)
            out[name] = {"n": len(members), "solved": solved, "rate": solved / len(members)}
    return out
