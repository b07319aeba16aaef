"""A chess board drawn from a FEN as plain HTML data (64 squares), with move highlights.

python-chess reads the FEN and the moves (UCI or SAN); the drawing is ours: the template lays
the squares out with CSS grid, so no image or script is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess

GLYPHS = {
    "K": "♔",
    "Q": "♕",
    "R": "♖",
    "B": "♗",
    "N": "♘",
    "P": "♙",
    "k": "♚",
    "q": "♛",
    "r": "♜",
    "b": "♝",
    "n": "♞",
    "p": "♟",
}


class BadPositionError(ValueError):
    """The FEN of a stored position cannot be read."""


@dataclass(frozen=True)
class Square:
    name: str
    dark: bool
    glyph: str
    piece: str  # FEN letter or ""
    marks: tuple[str, ...]  # "model-from", "model-to", "best-from", "best-to"

    @property
    def css(self) -> str:
        return " ".join(("sq", "dark" if self.dark else "light", *self.marks))

    @property
    def label(self) -> str:
        return f"{self.name} {self.piece}" if self.piece else self.name


def move_squares(board: chess.Board, text: str | None) -> tuple[str, str] | None:
    """(from, to) of a move given in UCI or SAN; None when absent or unreadable."""
    if not text:
        return None
    text = str(text).strip()
    for parse in (board.parse_uci, board.parse_san):
        try:
            move = parse(text)
        except ValueError:
            continue
        return chess.square_name(move.from_square), chess.square_name(move.to_square)
    if len(text) >= 4 and text[:2] in chess.SQUARE_NAMES and text[2:4] in chess.SQUARE_NAMES:
        return text[:2], text[2:4]  # an illegal move the model claimed: still show where
    return None


def board_squares(
    fen: str, *, model_move: str | None = None, best_move: str | None = None, flip: bool = False
) -> list[Square]:
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise BadPositionError(f"cannot read FEN {fen!r}: {exc}") from exc
    marks: dict[str, list[str]] = {}
    for prefix, text in (("model", model_move), ("best", best_move)):
        squares = move_squares(board, text)
        if squares:
            marks.setdefault(squares[0], []).append(f"{prefix}-from")
            marks.setdefault(squares[1], []).append(f"{prefix}-to")
    ranks = range(8) if flip else range(7, -1, -1)
    files = range(7, -1, -1) if flip else range(8)
    out = []
    for rank in ranks:
        for file in files:
            sq = chess.square(file, rank)
            piece = board.piece_at(sq)
            letter = piece.symbol() if piece else ""
            name = chess.square_name(sq)
            out.append(
                Square(
                    name=name,
                    dark=(file + rank) % 2 == 0,
                    glyph=GLYPHS.get(letter, ""),
                    piece=letter,
                    marks=tuple(marks.get(name, ())),
                )
            )
    return out


def side_to_move(fen: str) -> str:
    parts = fen.split()
    return "black" if len(parts) > 1 and parts[1] == "b" else "white"


def item_positions(details: dict[str, Any]) -> list[dict[str, Any]]:
    """The positions of a stored chess item, for the position viewer and the API's game
    endpoint: a game's or a task's list of per-move records, or the item itself if it is one."""
    for key in ("positions", "moves", "plies"):
        value = details.get(key)
        if (
            isinstance(value, list)
            and value
            and all(isinstance(p, dict) and p.get("fen") for p in value)
        ):
            return value
    return [details] if details.get("fen") else []


def game_positions(details: dict[str, Any]) -> dict[str, Any]:
    """The API's view of a chess item (FamilySpec.game): its positions."""
    return {"positions": item_positions(details)}
