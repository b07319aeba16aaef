"""What the player to move may know, in the terms the Walton-Rivers framework's rules use.

The original agents (fossgalaxy/hanabi, Java) read a per-player copy of the state:

* hands have fixed slots (``Hand`` / ``TimedHand``): a drawn card takes the slot the played
  or discarded card left, and a slot is empty once the deck is out. ``HanabiGame.slots``
  mirrors that, and every rule here walks slots, never HLE indices;
* the player's "deck" is every card it has not seen: the real deck plus its own hand
  (``CardDrawn`` events are hidden from the drawer, so its own cards never leave its deck).
  ``DeckUtils.bindBlindCard`` lists, per slot, the copies in that deck the slot's hint
  knowledge still allows: that is ``possible`` below, card counting included;
* "known" colour / value (``NegativeHand.getKnownColour`` / ``getKnownValue``) means one
  possibility left after positive and negative hints.

Only information the seat is entitled to is read: other hands, hint knowledge, fireworks,
discards and tokens.
"""

from __future__ import annotations

import random

from games.hanabi.cards import COLOURS, COPIES_PER_RANK, NUM_RANKS, CardKnowledge
from games.hanabi.state import HanabiGame


def known_colour(know: CardKnowledge) -> int | None:
    cs = know.possible_colours()
    return cs[0] if len(cs) == 1 else None


def known_rank(know: CardKnowledge) -> int | None:
    rs = know.possible_ranks()
    return rs[0] if len(rs) == 1 else None


class BotView:
    __slots__ = ("_possible", "game", "legal", "legal_set", "me", "rng", "unseen")

    def __init__(self, game: HanabiGame, rng: random.Random) -> None:
        self.game = game
        self.me = game.current_player
        self.rng = rng
        self.legal = game.legal_moves()
        self.legal_set = set(self.legal)
        self.unseen = game.unseen_counts(self.me)  # the original's per-player "deck"
        self._possible: dict[int, dict[int, int]] = {}

    # ----- the table ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def hand_size(self) -> int:
        return self.game.hand_size

    @property
    def info(self) -> int:
        return self.game.info_tokens

    @property
    def lives(self) -> int:
        return self.game.lives

    def table(self, colour: int) -> int:
        """Height of a firework (``GameState.getTableValue``)."""
        return self.game.fireworks[colour]

    def playable(self, card: int) -> bool:
        return self.game.fireworks[card // NUM_RANKS] == card % NUM_RANKS

    def next_player(self) -> int:
        """``AbstractRule.selectPlayer``: the next seat in turn order."""
        return (self.me + 1) % self.players

    def others_from_next(self) -> list[int]:
        """Seats other than mine, next player first (``TellAnyoneAboutUsefulCard``)."""
        return [(self.me + k) % self.players for k in range(1, self.players)]

    def others_by_seat(self) -> list[int]:
        """Seats other than mine in absolute order 0..n-1 (``TellMostInformation``,
        ``TellDispensable`` loop over player ids this way)."""
        return [p for p in range(self.players) if p != self.me]

    # ----- slots ----------------------------------------------------------------------------

    def card(self, seat: int, slot: int) -> int | None:
        index = self.game.slots[seat][slot]
        return None if index is None else self.game.hands[seat][index]

    def knowledge(self, seat: int, slot: int) -> CardKnowledge | None:
        index = self.game.slots[seat][slot]
        return None if index is None else self.game.knowledge[seat][index]

    def has_card(self, seat: int, slot: int) -> bool:
        return self.game.slots[seat][slot] is not None

    def possible(self, slot: int) -> dict[int, int]:
        """Card type -> copies in my unseen "deck" that my slot's hints allow (empty when the
        slot is empty): ``DeckUtils.bindBlindCard``."""
        if slot not in self._possible:
            know = self.knowledge(self.me, slot)
            self._possible[slot] = (
                {}
                if know is None
                else {c: n for c, n in enumerate(self.unseen) if n > 0 and know.may_be(c)}
            )
        return self._possible[slot]

    # ----- HandUtils ------------------------------------------------------------------------

    def highest_possible(self, colour: int) -> int:
        """``HandUtils.getHighestScorePossible``: the first rank above the firework whose
        copies are all discarded caps the colour one below it."""
        discarded = self.game.discard_counts()
        for rank in range(self.table(colour) + 1, NUM_RANKS + 1):
            if discarded[colour * NUM_RANKS + rank - 1] == COPIES_PER_RANK[rank - 1]:
                return rank - 1
        return NUM_RANKS

    def safe_to_discard(self, colour: int | None, rank: int | None) -> bool:
        """``HandUtils.isSafeToDiscard`` from a (possibly partial) identity."""
        fw = self.game.fireworks
        if colour is not None and fw[colour] == NUM_RANKS:
            return True  # isSafeBecauseFiveAlreadyPlayed
        if colour is not None and rank is not None and fw[colour] >= rank:
            return True  # isSafeBecauseValueLowerThanPlayed
        if rank is not None and rank <= min(fw):
            return True  # isSafeBecauseValueLowerThanMinOnTable
        # isSafeToDiscardHigherThanPossible
        return colour is not None and rank is not None and self.highest_possible(colour) < rank

    def card_safe_to_discard(self, card: int) -> bool:
        return self.safe_to_discard(card // NUM_RANKS, card % NUM_RANKS + 1)

    # ----- moves ----------------------------------------------------------------------------

    def play(self, slot: int) -> str:
        return f"(Play {self.game.slots[self.me][slot]})"

    def discard(self, slot: int) -> str:
        return f"(Discard {self.game.slots[self.me][slot]})"

    def tell_colour(self, seat: int, card: int) -> str:
        return (
            f"(Reveal player +{(seat - self.me) % self.players} color {COLOURS[card // NUM_RANKS]})"
        )

    def tell_rank(self, seat: int, card: int) -> str:
        return f"(Reveal player +{(seat - self.me) % self.players} rank {card % NUM_RANKS + 1})"
