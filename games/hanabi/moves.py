"""HLE move strings, parsed into values and formatted back.

HLE (and OpenSpiel) spell moves ``(Play 0)``, ``(Discard 2)``, ``(Reveal player +1 color R)``,
``(Reveal player +2 rank 3)``; card indices count from the oldest card (0) and the hint target
is an offset from the mover. These strings are the canonical move names everywhere in Podium.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from games.hanabi.cards import COLOURS

MoveKind = Literal["play", "discard", "reveal_colour", "reveal_rank"]


class InvalidMoveStringError(ValueError):
    """Raised by ``parse_move`` when a string is not an HLE move."""


class IllegalMoveError(ValueError):
    """Raised by ``HanabiGame.apply`` when a well-formed move is not legal in the state."""


@dataclass(frozen=True, slots=True)
class Move:
    kind: MoveKind
    card_index: int | None = None  # play / discard
    target_offset: int | None = None  # reveal: 1 = next player
    colour: int | None = None  # reveal_colour
    rank: int | None = None  # reveal_rank

    @property
    def is_hint(self) -> bool:
        return self.kind in ("reveal_colour", "reveal_rank")

    def hle(self) -> str:
        if self.kind == "play":
            return f"(Play {self.card_index})"
        if self.kind == "discard":
            return f"(Discard {self.card_index})"
        if self.kind == "reveal_colour":
            assert self.colour is not None
            return f"(Reveal player +{self.target_offset} color {COLOURS[self.colour]})"
        return f"(Reveal player +{self.target_offset} rank {self.rank})"


def play(index: int) -> Move:
    return Move("play", card_index=index)


def discard(index: int) -> Move:
    return Move("discard", card_index=index)


def reveal_colour(offset: int, colour: int) -> Move:
    return Move("reveal_colour", target_offset=offset, colour=colour)


def reveal_rank(offset: int, rank: int) -> Move:
    return Move("reveal_rank", target_offset=offset, rank=rank)


_PATTERNS = (
    (re.compile(r"\(Play (\d)\)"), lambda m: play(int(m[1]))),
    (re.compile(r"\(Discard (\d)\)"), lambda m: discard(int(m[1]))),
    (
        re.compile(r"\(Reveal player \+(\d) color ([RYGWB])\)"),
        lambda m: reveal_colour(int(m[1]), COLOURS.index(m[2])),
    ),
    (
        re.compile(r"\(Reveal player \+(\d) rank ([1-5])\)"),
        lambda m: reveal_rank(int(m[1]), int(m[2])),
    ),
)


def parse_move(text: str) -> Move:
    for pattern, build in _PATTERNS:
        m = pattern.fullmatch(text.strip())
        if m:
            return build(m)
    raise InvalidMoveStringError(f"not an HLE move string: {text!r}")
