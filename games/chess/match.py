"""Playing a whole game between two move choosers (engines, bots; the LLM players live in
evaluators/chess and drive their own loop so they can checkpoint between moves)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import chess

Result = Literal["1-0", "0-1", "1/2-1/2"]
MAX_MOVES = 200  # full moves; a game still running after them is a draw
MoveChooser = Callable[[chess.Board], chess.Move]


@dataclass(frozen=True)
class GameRecord:
    result: Result
    reason: (
        str  # checkmate, stalemate, repetition, fifty_moves, insufficient_material, move_limit, ...
    )
    moves: tuple[str, ...]  # UCI


def game_over(board: chess.Board, *, max_moves: int = MAX_MOVES) -> tuple[Result, str] | None:
    """The result when the game is finished (draws that can be claimed are claimed at once)."""
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        return outcome.result(), outcome.termination.name.lower()  # type: ignore[return-value]
    if len(board.move_stack) >= 2 * max_moves:
        return "1/2-1/2", "move_limit"
    return None


def score_for(result: Result, white: bool) -> float:
    if result == "1/2-1/2":
        return 0.5
    return 1.0 if (result == "1-0") == white else 0.0


def play_game(
    white: MoveChooser,
    black: MoveChooser,
    *,
    board: chess.Board | None = None,
    max_moves: int = MAX_MOVES,
) -> GameRecord:
    board = board.copy() if board is not None else chess.Board()
    while (end := game_over(board, max_moves=max_moves)) is None:
        chooser = white if board.turn == chess.WHITE else black
        move = chooser(board.copy())
        if move not in board.legal_moves:
            # bots never do this; an illegal move loses, as it does for the model players
            return GameRecord(
                "0-1" if board.turn == chess.WHITE else "1-0",
                "illegal_move",
                tuple(m.uci() for m in board.move_stack) + (move.uci(),),
            )
        board.push(move)
    return GameRecord(end[0], end[1], tuple(m.uci() for m in board.move_stack))
