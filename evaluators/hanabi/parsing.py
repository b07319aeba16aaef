"""Turning a model's reply into an index of the numbered legal moves.

Replies are untrusted text, and only the format the prompt asks for is accepted:

* Watson: reasoning, then a final line exactly ``MOVE: <number>``. A number mentioned
  anywhere else ("I would move 2 cards", "Alternatively move 3") is never taken as the
  answer, because guessing which number was meant can play a card nobody chose.
* Sherlock, Mycroft: one JSON object with an integer "action" and nothing else (a single
  Markdown code fence around it is tolerated: it wraps the JSON, it adds no text).

Anything else raises ``UnparseableReplyError`` with a message the model is shown when it
is asked again (players.py re-asks, then falls back).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any


class UnparseableReplyError(ValueError):
    """The reply is not in the required format; the message says why (shown on re-ask)."""


@dataclass(frozen=True)
class ParsedReply:
    index: int
    data: dict[str, Any] | None  # the JSON object, when the setting asks for JSON


_MOVE_LINE = re.compile(r"MOVE: (\d+)")
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*)\n[ \t]*```", re.DOTALL)


def _check_range(index: int, n_legal: int) -> None:
    if not 0 <= index < n_legal:
        raise UnparseableReplyError(f"move {index} is not in the list (0 to {n_legal - 1})")


def _parse_watson(text: str, n_legal: int) -> ParsedReply:
    last = text.strip().splitlines()[-1].strip()
    m = _MOVE_LINE.fullmatch(last)
    if m is None:
        raise UnparseableReplyError(
            f"the last line must be exactly `MOVE: <number>`, got {last[:80]!r}"
        )
    index = int(m[1])
    _check_range(index, n_legal)
    return ParsedReply(index, None)


def _parse_json(text: str, n_legal: int) -> ParsedReply:
    body = text.strip()
    fenced = _FENCE.fullmatch(body)
    if fenced is not None:
        body = fenced[1].strip()
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        raise UnparseableReplyError(
            f"the reply must be one JSON object and nothing else ({exc.msg} at character {exc.pos})"
        ) from None
    if not isinstance(obj, dict):
        raise UnparseableReplyError('the reply must be a JSON object with an "action" field')
    if "action" not in obj:
        raise UnparseableReplyError('the JSON object has no "action" field (the move number)')
    action = obj["action"]
    if not isinstance(action, int) or isinstance(action, bool):
        raise UnparseableReplyError(
            f'"action" must be a move number (an integer), got {json.dumps(action)[:80]}'
        )
    _check_range(action, n_legal)
    return ParsedReply(action, obj)


def parse_reply(text: str, n_legal: int, *, expect_json: bool) -> ParsedReply:
    if not text or not text.strip():
        raise UnparseableReplyError("the reply was empty")
    return _parse_json(text, n_legal) if expect_json else _parse_watson(text, n_legal)
