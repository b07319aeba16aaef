"""Rule-based Hanabi bots, the registry of them, and bot-only games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.hanabi.bots.agents import (
    IGGI,
    Bot,
    Decision,
    Flawed,
    Internal,
    LegalRandom,
    Outer,
    Piers,
    RuleBot,
    VanDenBergh,
)
from games.hanabi.state import HanabiGame

BOT_CLASSES: dict[str, type[Bot]] = {
    cls.name: cls for cls in (IGGI, Piers, VanDenBergh, Outer, Internal, Flawed, LegalRandom)
}
BOT_DISPLAY_NAMES: dict[str, str] = {
    "iggi": "IGGI (rule bot)",
    "piers": "Piers (rule bot)",
    "vandenbergh": "Van den Bergh (rule bot)",
    "outer": "Outer (rule bot)",
    "internal": "Internal (rule bot)",
    "flawed": "Flawed (rule bot)",
    "legal_random": "Legal random",
}


class UnknownBotError(KeyError):
    pass


def make_bot(name: str, *, seed: int, seat: int, stream: str = "") -> Bot:
    """A bot whose random choices are fixed by (name, seed, seat, stream)."""
    try:
        cls = BOT_CLASSES[name]
    except KeyError:
        raise UnknownBotError(
            f"unknown Hanabi bot {name!r}; known: {sorted(BOT_CLASSES)}"
        ) from None
    return cls(random.Random(f"podium-hanabi-bot/{name}/{seed}/{seat}/{stream}"))


def play_out(game: HanabiGame, bots: Sequence[Bot], max_turns: int = 500) -> HanabiGame:
    """Let ``bots`` (one per seat) play ``game`` to its end, in place."""
    while not game.is_terminal() and max_turns:
        game.apply(bots[game.current_player].act(game))
        max_turns -= 1
    return game


def bot_game(names: Sequence[str], seed: int) -> HanabiGame:
    """A complete game between bots, one name per seat."""
    game = HanabiGame(seed, len(names))
    return play_out(game, [make_bot(n, seed=seed, seat=s) for s, n in enumerate(names)])


__all__ = [
    "BOT_CLASSES",
    "BOT_DISPLAY_NAMES",
    "Bot",
    "Decision",
    "RuleBot",
    "UnknownBotError",
    "bot_game",
    "make_bot",
    "play_out",
]
