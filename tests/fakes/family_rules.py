"""A reply rule for the fake server that answers all three families plausibly, so an
end-to-end run (scripts/compose_smoke.sh) finishes with graded items rather than parse
failures. It recognises each family by its prompt:

* chess: a ``Position (FEN): ...`` line -> the first legal move in UCI order;
* Hanabi: a numbered list of legal moves ``1. (Reveal ...`` -> a hint if one is listed,
  else a discard, as ``MOVE: n``;
* anything else (HiPhO) -> a boxed answer.

The same shapes as the rules in tests/faults/conftest.py, gathered into one function.
"""

from __future__ import annotations

import re
from typing import Any

import chess

_FEN = re.compile(r"Position \(FEN\): (.+)")
_LEGAL = re.compile(r"^(\d+)\. \((\w+)", re.MULTILINE)


def _user_texts(request: dict[str, Any]) -> list[str]:
    texts = []
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, str) and message.get("role") != "assistant":
            texts.append(content)
    return texts


def three_families(request: dict[str, Any]) -> str:
    for text in reversed(_user_texts(request)):
        fen = _FEN.search(text)
        if fen:
            board = chess.Board(fen.group(1).strip())
            move = min(board.legal_moves, key=lambda m: m.uci())
            return f"Developing. Final answer: {move.uci()}"
        legal = _LEGAL.findall(text)
        if legal:
            kinds = {kind: int(i) for i, kind in reversed(legal)}
            return f"Keep the team informed.\nMOVE: {kinds.get('Reveal', kinds.get('Discard', 0))}"
    return "Reasoning about the problem. The answer is \\boxed{1}."
