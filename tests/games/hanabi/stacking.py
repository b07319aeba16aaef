"""Games on a stacked deck, for tests that reason about one constructed position."""

from __future__ import annotations

from games.hanabi import HanabiGame
from games.hanabi.cards import FULL_COUNTS, parse_card


def stacked(players: int, *hands: str, moves: tuple[str, ...] = ()) -> HanabiGame:
    """A game whose hands are the given cards ("R1 Y2 ..."), then the rest of the deck."""
    counts, deck = list(FULL_COUNTS), []
    for hand in hands:
        for name in hand.split():
            card = parse_card(name)
            counts[card] -= 1
            deck.append(card)
    deck += [c for c in range(25) for _ in range(counts[c])]
    game = HanabiGame(0, players, deck=deck)
    for move in moves:
        game.apply(move)
    return game
