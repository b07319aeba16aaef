"""Cards, the standard deck and what a player knows about one of their cards.

A card is an int 0..24, ``colour * 5 + (rank - 1)``: the same numbering as OpenSpiel's deal
actions (0 = "(Deal R1)", 24 = "(Deal B5)"), so a card id is also the chance action that
deals it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

COLOURS: Final = "RYGWB"  # HLE's colour order
COLOUR_NAMES: Final = ("red", "yellow", "green", "white", "blue")
RANKS: Final = (1, 2, 3, 4, 5)
NUM_COLOURS: Final = 5
NUM_RANKS: Final = 5
NUM_CARD_TYPES: Final = 25
COPIES_PER_RANK: Final = (3, 2, 2, 2, 1)  # ranks 1..5
DECK_SIZE: Final = 50
MAX_INFO_TOKENS: Final = 8
MAX_LIFE_TOKENS: Final = 3
MAX_SCORE: Final = 25

ALL_COLOURS_MASK: Final = (1 << NUM_COLOURS) - 1
ALL_RANKS_MASK: Final = (1 << NUM_RANKS) - 1


def card_id(colour: int, rank: int) -> int:
    return colour * NUM_RANKS + rank - 1


def colour_of(card: int) -> int:
    return card // NUM_RANKS


def rank_of(card: int) -> int:
    return card % NUM_RANKS + 1


def card_name(card: int) -> str:
    return f"{COLOURS[card // NUM_RANKS]}{card % NUM_RANKS + 1}"


def parse_card(text: str) -> int:
    """'R1' -> 0. Raises ValueError naming the text when it is not a card."""
    if len(text) != 2 or text[0] not in COLOURS or text[1] not in "12345":
        raise ValueError(f"not a Hanabi card: {text!r} (expected e.g. 'R1', colours {COLOURS})")
    return card_id(COLOURS.index(text[0]), int(text[1]))


def full_counts() -> list[int]:
    """Copies of each card type in a full deck, indexed by card id."""
    return [COPIES_PER_RANK[r] for _ in range(NUM_COLOURS) for r in range(NUM_RANKS)]


FULL_COUNTS: Final = tuple(full_counts())


@dataclass(frozen=True, slots=True)
class CardKnowledge:
    """What the holder of a card knows about it from hints alone (no card counting).

    ``colour`` / ``rank`` are set only by a positive hint ("these cards are red"), exactly as
    HLE reports them; ``colours`` / ``ranks`` are bitmasks of what is still possible after
    positive and negative hints (bit i = colour i, bit r-1 = rank r).
    """

    colour: int | None = None
    rank: int | None = None
    colours: int = ALL_COLOURS_MASK
    ranks: int = ALL_RANKS_MASK

    def may_be(self, card: int) -> bool:
        return bool(
            self.colours >> (card // NUM_RANKS) & 1 and self.ranks >> (card % NUM_RANKS) & 1
        )

    def possible_colours(self) -> tuple[int, ...]:
        return tuple(c for c in range(NUM_COLOURS) if self.colours >> c & 1)

    def possible_ranks(self) -> tuple[int, ...]:
        return tuple(r + 1 for r in range(NUM_RANKS) if self.ranks >> r & 1)

    def colour_known(self) -> bool:
        """True when only one colour remains possible (hinted or deduced from negatives)."""
        return self.colours & (self.colours - 1) == 0

    def rank_known(self) -> bool:
        return self.ranks & (self.ranks - 1) == 0

    def hinted_text(self) -> str:
        """HLE's two-character form of the positive hints: 'XX', 'R3', 'X3', 'RX'."""
        c = COLOURS[self.colour] if self.colour is not None else "X"
        r = str(self.rank) if self.rank is not None else "X"
        return c + r

    def possible_text(self) -> str:
        """HLE's form of what is still possible: 'RYGWB12345' minus what hints ruled out."""
        return "".join(COLOURS[c] for c in self.possible_colours()) + "".join(
            str(r) for r in self.possible_ranks()
        )

    def with_colour_hint(self, colour: int, touched: bool) -> CardKnowledge:
        if touched:
            return CardKnowledge(colour, self.rank, 1 << colour, self.ranks)
        return CardKnowledge(self.colour, self.rank, self.colours & ~(1 << colour), self.ranks)

    def with_rank_hint(self, rank: int, touched: bool) -> CardKnowledge:
        if touched:
            return CardKnowledge(self.colour, rank, self.colours, 1 << (rank - 1))
        return CardKnowledge(self.colour, self.rank, self.colours, self.ranks & ~(1 << (rank - 1)))


UNKNOWN: Final = CardKnowledge()
