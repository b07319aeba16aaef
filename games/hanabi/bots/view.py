"""What the player to move may know, computed once per turn for the rules to read.

Only information the seat is entitled to: the other hands, the hint knowledge on every card,
the fireworks, discards and tokens. "Surely" playable / useless is judged from the hints
alone, as the published agents' safe-play and Osawa-discard rules do (with card counting
added, IGGI/Internal/Outer score 1-2 points above the published self-play means).
Probabilities weight each card type consistent with the
hints by the copies of it this player cannot see (the deck plus their own hand); like the
published agents, the slots of one's own hand are treated independently.
"""

from __future__ import annotations

import random

from games.hanabi.cards import NUM_RANKS, CardKnowledge
from games.hanabi.state import HanabiGame


class BotView:
    __slots__ = ("_legal_set", "_possible", "_useless", "game", "legal", "me", "rng", "unseen")

    def __init__(self, game: HanabiGame, rng: random.Random) -> None:
        self.game = game
        self.me = game.current_player
        self.rng = rng
        self.legal = game.legal_moves()
        self._legal_set = set(self.legal)
        self.unseen = game.unseen_counts(self.me)
        self._possible: list[dict[int, int]] | None = None
        self._useless: list[bool] | None = None

    # ----- the table ----------------------------------------------------------------------

    def is_legal(self, move: str) -> bool:
        return move in self._legal_set

    @property
    def hand_len(self) -> int:
        return len(self.game.hands[self.me])

    def others(self) -> list[tuple[int, int]]:
        """(offset, seat) of the other players in turn order, next player first."""
        n = self.game.players
        return [(k, (self.me + k) % n) for k in range(1, n)]

    def useless(self, card: int) -> bool:
        if self._useless is None:
            self._useless = [self.game.is_useless(c) for c in range(25)]
        return self._useless[card]

    def playable(self, card: int) -> bool:
        return self.game.fireworks[card // NUM_RANKS] == card % NUM_RANKS

    # ----- my own hand --------------------------------------------------------------------

    def possible(self, index: int) -> dict[int, int]:
        if self._possible is None:
            unseen = self.unseen
            self._possible = [
                {c: n for c, n in enumerate(unseen) if n > 0 and know.may_be(c)}
                for know in self.game.knowledge[self.me]
            ]
        return self._possible[index]

    def p_playable(self, index: int) -> float:
        poss = self.possible(index)
        total = sum(poss.values())
        return sum(n for c, n in poss.items() if self.playable(c)) / total if total else 0.0

    def p_useless(self, index: int) -> float:
        poss = self.possible(index)
        total = sum(poss.values())
        return sum(n for c, n in poss.items() if self.useless(c)) / total if total else 0.0

    def surely_playable(self, index: int) -> bool:
        """Every card type the hints allow is playable (hints only, no counting)."""
        know = self.game.knowledge[self.me][index]
        return all(self.playable(c) for c in range(25) if know.may_be(c))

    def surely_useless(self, index: int) -> bool:
        """Every card type the hints allow is useless (hints only, no counting)."""
        return self.knows_useless(self.me, index)

    def certain_card(self, index: int) -> int | None:
        """The card's identity when hints alone pin both colour and rank."""
        know = self.game.knowledge[self.me][index]
        if know.colour_known() and know.rank_known():
            return know.possible_colours()[0] * NUM_RANKS + know.possible_ranks()[0] - 1
        return None

    # ----- what the others know ---------------------------------------------------------

    def knowledge_of(self, seat: int) -> list[CardKnowledge]:
        return self.game.knowledge[seat]

    def knows_useless(self, seat: int, index: int) -> bool:
        """Would the holder, from hints alone, know the card can be thrown away?"""
        know = self.game.knowledge[seat][index]
        return all(self.useless(c) for c in range(25) if know.may_be(c))
