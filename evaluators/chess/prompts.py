"""Prompts for the chess tasks and parsing of the model's final answer.

Every prompt asks for the answer after a final-answer marker ("Final answer: ..."). Only the
text after the LAST marker is the answer; the text before it is the reasoning, which the
hallucination check reads. A reply without a marker, or whose answer is not chess notation,
is a parse failure; notation that names no legal move is an illegal move. The two are counted
apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import chess

from evaluators.base import Message, stable_hash

FINAL_MARKER = "Final answer:"
_MARKER_RE = re.compile(r"final\s+answer\s*[:：]", re.IGNORECASE)
_UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_MOVE_NUMBER_RE = re.compile(r"^\d+\.(\.\.)?")
_STRIP = " \t\r\n*`_\"'“”‘’()[]{}<>"
MAX_REPLY_CHARS = 100_000

ErrorKind = Literal["unparseable", "illegal"]

SYSTEM = (
    "You are a chess expert. Positions are given in FEN. Reason as much as you need, then end "
    f"your reply with one line '{FINAL_MARKER} <answer>'. Write moves in SAN (e.g. Nf3, exd5, "
    "O-O, e8=Q) or UCI (e.g. g1f3, e7e8q)."
)

TEMPLATES = {
    "best_move": "Find the best move for {side}.",
    "mc_best": "Which of these moves is the BEST for {side}? Candidates: {candidates}. "
    "Answer with one of the candidates.",
    "mc_worst": "Which of these moves is the WORST for {side}? Candidates: {candidates}. "
    "Answer with one of the candidates.",
    "legal_moves": "List every legal move of the {piece} on {square}. Answer with all of them, "
    "separated by commas, or 'none' if it has no legal move.",
    "puzzles": "This is a puzzle: find the best move for {side}.",
    "games": "You are playing {side} in a game against {opponent}. Play your move.",
    "rethink": "Your answer {answer!r} was rejected: {error}. Think again and end with "
    f"'{FINAL_MARKER} <move>'.",
}
TEMPLATE_HASH = stable_hash({"system": SYSTEM, "templates": TEMPLATES, "marker": FINAL_MARKER})


class AnswerError(ValueError):
    """A reply whose answer cannot be used; ``kind`` tells a parse failure from an illegal move."""

    def __init__(self, kind: ErrorKind, message: str, answer: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.answer = answer


def side_name(board: chess.Board) -> str:
    return "White" if board.turn == chess.WHITE else "Black"


def history_text(start: chess.Board, moves: Sequence[chess.Move]) -> str:
    """Moves in SAN with move numbers, played from ``start``."""
    return start.variation_san(list(moves)) if moves else ""


def position_block(board: chess.Board, *, history: str = "", ascii_board: bool = True) -> str:
    lines = [f"Position (FEN): {board.fen()}", f"Side to move: {side_name(board)}"]
    if history:
        lines.append(f"Moves so far: {history}")
    if ascii_board:
        lines.append("Board (White at the bottom, upper case = White):\n" + str(board))
    return "\n".join(lines)


def build_messages(
    board: chess.Board, task_text: str, *, history: str = "", ascii_board: bool = True
) -> list[Message]:
    return [
        {"role": "system", "content": SYSTEM},
        {
            "role": "user",
            "content": position_block(board, history=history, ascii_board=ascii_board)
            + "\n\n"
            + task_text,
        },
    ]


def rethink_message(answer: str | None, error: str) -> Message:
    return {
        "role": "user",
        "content": TEMPLATES["rethink"].format(answer=answer or "", error=error),
    }


@dataclass(frozen=True)
class SplitReply:
    reasoning: str  # everything before the last marker (the whole reply when there is none)
    answer: str | None  # the text after the last marker, first line, or None without a marker


def split_reply(text: str) -> SplitReply:
    last = None
    for last in _MARKER_RE.finditer(text):  # noqa: B007  (keeps the last match)
        pass
    if last is None:
        return SplitReply(text, None)
    rest = text[last.end() :].strip()
    first_line = rest.splitlines()[0] if rest else ""
    return SplitReply(text[: last.start()], first_line.strip(_STRIP).strip())


def _clean_token(token: str) -> str:
    token = token.strip(_STRIP).rstrip(".,;:!?").strip(_STRIP)
    token = _MOVE_NUMBER_RE.sub("", token)
    return token.replace("0-0-0", "O-O-O").replace("0-0", "O-O")


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """A reply -> the legal move it names. Raises AnswerError("unparseable" | "illegal")."""
    answer = split_reply(text).answer
    if answer is None:
        raise AnswerError("unparseable", f"no '{FINAL_MARKER}' line in the reply")
    tokens = [t for t in (_clean_token(x) for x in answer.split()) if t and not t.isdigit()]
    if not tokens:
        raise AnswerError("unparseable", f"nothing after '{FINAL_MARKER}'", answer)
    return move_from_token(board, tokens[0])


def move_from_token(board: chess.Board, token: str) -> chess.Move:
    if _UCI_RE.match(token):
        move = chess.Move.from_uci(token)
        if move not in board.legal_moves:
            raise AnswerError("illegal", f"{token} is not a legal move in this position", token)
        return move
    try:
        return board.parse_san(token)
    except chess.IllegalMoveError:
        raise AnswerError(
            "illegal", f"{token} is not a legal move in this position", token
        ) from None
    except chess.AmbiguousMoveError:
        raise AnswerError(
            "illegal", f"{token} is ambiguous: more than one piece can make it", token
        ) from None
    except chess.InvalidMoveError:
        raise AnswerError(
            "unparseable", f"{token!r} is not a move in SAN or UCI notation", token
        ) from None


def parse_move_list(
    board: chess.Board, text: str, from_square: chess.Square
) -> tuple[set[str], list[str]]:
    """A legal-moves answer -> (the UCI moves it names, tokens it could not read). A token may be
    SAN, UCI or just the destination square. 'none' is the empty set."""
    answer = split_reply(text).answer
    if answer is None:
        raise AnswerError("unparseable", f"no '{FINAL_MARKER}' line in the reply")
    if answer.strip().lower().rstrip(".") in ("none", "no legal moves", "-", ""):
        return set(), []
    moves: set[str] = set()
    bad: list[str] = []
    for raw in re.split(r"[,\s;]+", answer):
        token = _clean_token(raw)
        if not token or token.lower() in ("and", "or"):
            continue
        if re.fullmatch(r"[a-h][1-8]", token):  # a destination square of the named piece
            to = chess.parse_square(token)
            found = {
                m.uci()
                for m in board.legal_moves
                if m.from_square == from_square and m.to_square == to
            }
            if found:
                moves |= found
            else:
                moves.add(chess.square_name(from_square) + token)  # a wrong claim, still counted
            continue
        try:
            moves.add(move_from_token(board, token).uci())
        except AnswerError as exc:
            if exc.kind == "illegal" and _UCI_RE.match(token):
                moves.add(token)  # an illegal move the model believes legal: it lowers the IoU
            elif exc.kind == "illegal":
                moves.add("illegal:" + token)
            else:
                bad.append(token)
    return moves, bad


def bounded(text: str, limit: int = MAX_REPLY_CHARS) -> str:
    return (
        text
        if len(text) <= limit
        else text[:limit] + f"\n[... truncated {len(text) - limit} characters]"
    )
