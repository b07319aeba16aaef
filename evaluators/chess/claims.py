"""Hallucination check: claims in the model's reasoning, checked against the position.

Two kinds of claim are extracted:

* moves, in SAN or UCI. Consecutive moves form a variation ("1. e4 e5 2. Nf3", "Nxe5 then
  Qh5"): its first move is checked against the current position (a move of either side counts,
  so a threat like "...Qxh2" is a true claim), each later move against the position the
  variation has reached. After the first false move the rest of that variation is left out,
  since there is no position to check it against.
* "piece on square" statements ("the knight on f3", "White's bishop on c4"), checked against
  the current position, or against the end of a variation that came earlier in the same
  sentence ("after Nxe5 the knight on e5 attacks f7").

Bare squares ("e4") count as moves only after a move number or inside a variation, so "the
pawn on e4" is not a move claim.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Literal

import chess

ClaimKind = Literal["move", "piece"]

_NUMBER = "\u2116"  # stands in for a move number while tokenising
_MOVE_NUMBER_RE = re.compile(r"(?<![\w.])\d{1,3}\s*\.(?:\s*\.\.)?")
# move numbers are replaced before splitting, so a single . ! ? ; before a space ends a sentence
_SENTENCE_RE = re.compile(r"(?<![.])[.!?;](?![.])(?=\s|$)|\n+")
_PIECE_RE = re.compile(
    r"\b(?:(white|black)(?:'s)?\s+)?(king|queen|rook|bishop|knight|pawn)\s+(?:on|at)\s+([a-h][1-8])\b",
    re.IGNORECASE)
_SAN_RE = re.compile(
    r"^(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h]x[a-h][1-8](?:=?[QRBN])?|[a-h][18]=?[QRBN]|O-O(?:-O)?)[+#]?$")
_UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_SQUARE_RE = re.compile(r"^[a-h][1-8][+#]?$")
_CONTINUE = {"then", "followed", "by", "->", "\u2192", "...", "and then"}
_PIECES = {"king": chess.KING, "queen": chess.QUEEN, "rook": chess.ROOK, "bishop": chess.BISHOP,
           "knight": chess.KNIGHT, "pawn": chess.PAWN}


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    text: str
    true: bool
    in_variation: bool  # checked against a variation's position rather than the current one

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _parse_move(board: chess.Board, token: str) -> chess.Move | None:
    """The legal move ``token`` names for the side to move, or None."""
    try:
        if _UCI_RE.match(token):
            move = chess.Move.from_uci(token)
            return move if move in board.legal_moves else None
        return board.parse_san(token)
    except ValueError:  # illegal, ambiguous or invalid: python-chess raises ValueError subclasses
        return None


def _either_side(board: chess.Board, token: str) -> chess.Board | None:
    """The board after ``token`` played by the side to move, or else by the other side (a
    threat); None if neither side can play it."""
    for b in (board, _passed(board)):
        if b is None:
            continue
        move = _parse_move(b, token)
        if move is not None:
            after = b.copy(stack=False)
            after.push(move)
            return after
    return None


def _passed(board: chess.Board) -> chess.Board | None:
    if board.is_check():
        return None  # the other side cannot move while the side to move is in check
    b = board.copy(stack=False)
    b.push(chess.Move.null())
    return b


def _clean(token: str) -> str:
    token = token.strip("*`_\"'()[]{}<>,:;!?")
    if token.endswith(".") and not token.endswith("..."):
        token = token.rstrip(".")
    token = token.lstrip(".")  # "...Qxh2"
    return token.replace("0-0-0", "O-O-O").replace("0-0", "O-O")


def _is_move_token(token: str, *, in_run: bool) -> bool:
    if _SAN_RE.match(token) or _UCI_RE.match(token):
        return True
    return in_run and bool(_SQUARE_RE.match(token))


def extract_claims(reasoning: str, board: chess.Board) -> list[Claim]:
    """Every move and piece claim of ``reasoning`` about ``board``, each judged true or false.
    Repeats of the same claim about the same position count once."""
    claims: list[Claim] = []
    seen: set[tuple[str, str, str]] = set()

    def add(kind: ClaimKind, text: str, ok: bool, at: chess.Board, var: bool) -> None:
        key = (kind, text, at.fen())
        if key not in seen:
            seen.add(key)
            claims.append(Claim(kind, text, ok, var))

    text = _MOVE_NUMBER_RE.sub(f" {_NUMBER} ", reasoning)
    for sentence in _SENTENCE_RE.split(text):
        context = board  # the position later piece claims in this sentence refer to
        in_variation = False
        # piece claims, located by character offset so they see the variation before them
        pieces = [(m.start(), m) for m in _PIECE_RE.finditer(sentence)]
        piece_spans = [(m.start(3), m.end(3)) for _, m in pieces]
        run_board: chess.Board | None = None  # position inside the current variation
        run_dead = False  # a false move ended the variation: skip its remaining moves
        expect_move = False  # a move number or connector was just seen
        events: list[tuple[int, str, Any]] = [(pos, "piece", m) for pos, m in pieces]
        for m in re.finditer(r"\S+", sentence):
            if any(a <= m.start() < b for a, b in piece_spans):
                continue  # the square of a piece claim
            events.append((m.start(), "token", m.group()))
        events.sort(key=lambda e: e[0])
        for _, what, value in events:
            if what == "piece":
                colour, piece, square = value.group(1), value.group(2).lower(), value.group(3).lower()
                found = context.piece_at(chess.parse_square(square))
                ok = found is not None and found.piece_type == _PIECES[piece] and (
                    colour is None or found.color == (colour.lower() == "white"))
                add("piece", value.group(0), ok, context, in_variation)
                continue
            raw = value
            if raw == _NUMBER:
                expect_move = True
                continue
            token = _clean(raw)
            if token.lower() in _CONTINUE or raw.startswith("..."):
                expect_move = True
                if token.lower() in _CONTINUE:
                    continue
            in_run = run_board is not None or run_dead
            if not token or not _is_move_token(token, in_run=in_run or expect_move):
                run_board, run_dead, expect_move = None, False, False  # any other word ends a variation
                continue
            expect_move = False
            if run_dead:
                continue
            if run_board is None:  # the first move of a variation: the current position
                after = _either_side(board, token)
                add("move", token, after is not None, board, False)
            else:
                move = _parse_move(run_board, token)
                after = None
                if move is not None:
                    after = run_board.copy(stack=False)
                    after.push(move)
                add("move", token, after is not None, run_board, True)
            if after is None:
                run_board, run_dead = None, True
            else:
                run_board = after
                context, in_variation = after, True
    return claims


def summarise(claims: list[Claim]) -> dict[str, int]:
    return {"total": len(claims), "false": sum(1 for c in claims if not c.true)}
