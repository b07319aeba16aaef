"""Turning a model's reply into an index of the numbered legal moves.

Replies are untrusted text: we look for a JSON object with an "action" (Sherlock, Mycroft),
else a ``MOVE: n`` line (Watson), else a lone number on the last line. Anything else raises
``UnparseableReplyError`` with a message the model is shown when it is asked again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any


class UnparseableReplyError(ValueError):
    """The reply names no usable move; the message says why (shown to the model on re-ask)."""


@dataclass(frozen=True)
class ParsedReply:
    index: int
    data: dict[str, Any] | None  # the JSON object, when the reply had one


_MOVE_LINE = re.compile(r"\bmove\s*(?:number|no\.?|#)?\s*[:=]?\s*\**\s*(-?\d+)", re.IGNORECASE)
_LONE_NUMBER = re.compile(r"^\W*(-?\d+)\W*$")


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in the text (code fences and prose around them allowed)."""
    decoder = json.JSONDecoder()
    found, i = [], 0
    while (start := text.find("{", i)) != -1:
        try:
            obj, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            i = start + 1
            continue
        if isinstance(obj, dict):
            found.append(obj)
        i = end
    return found


def _as_index(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        m = re.match(r"\s*(?:move\s*)?#?\s*(-?\d+)", value, re.IGNORECASE)
        if m:
            return int(m[1])
    return None


def parse_reply(text: str, n_legal: int, *, expect_json: bool) -> ParsedReply:
    if not text or not text.strip():
        raise UnparseableReplyError("the reply was empty")
    index: int | None = None
    data: dict[str, Any] | None = None
    for obj in reversed(_json_objects(text)):
        if "action" in obj:
            data = obj
            index = _as_index(obj["action"])
            if index is None:
                raise UnparseableReplyError(
                    f'"action" must be a move number, got {json.dumps(obj["action"])[:80]}')
            break
    if index is None and not expect_json:
        matches = _MOVE_LINE.findall(text)
        if matches:
            index = int(matches[-1])
        else:
            last = text.strip().splitlines()[-1]
            m = _LONE_NUMBER.match(last)
            if m:
                index = int(m[1])
    if index is None:
        wanted = 'a JSON object with an "action" field' if expect_json else "a line `MOVE: <number>`"
        raise UnparseableReplyError(f"no move number found; expected {wanted}")
    if not 0 <= index < n_legal:
        raise UnparseableReplyError(f"move {index} is not in the list (0 to {n_legal - 1})")
    return ParsedReply(index, data)
