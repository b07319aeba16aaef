"""Hanabi through OpenSpiel's HLE rules: seeded deals, replay, card knowledge, bots."""

from games.hanabi.cards import COLOURS, CardKnowledge, card_name, parse_card
from games.hanabi.moves import IllegalMoveError, InvalidMoveStringError, Move, parse_move
from games.hanabi.state import EndReason, HanabiGame, MoveRecord, deck_order

__all__ = [
    "COLOURS",
    "CardKnowledge",
    "EndReason",
    "HanabiGame",
    "IllegalMoveError",
    "InvalidMoveStringError",
    "Move",
    "MoveRecord",
    "card_name",
    "deck_order",
    "parse_card",
    "parse_move",
]
