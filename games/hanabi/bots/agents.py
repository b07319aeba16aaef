"""The rule-based agents (Walton-Rivers et al., 2017) and a legal-random baseline."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.hanabi.bots import rules as r
from games.hanabi.bots.view import BotView
from games.hanabi.state import HanabiGame


@dataclass(frozen=True)
class Decision:
    move: str
    rule: str  # the rule that fired, for transcripts


class Bot:
    """Plays the current seat of a game. ``rng`` drives every random choice, so a bot seeded
    the same way makes the same moves."""

    name = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, game: HanabiGame) -> Decision:
        raise NotImplementedError

    def act(self, game: HanabiGame) -> str:
        return self.decide(game).move


class RuleBot(Bot):
    rules: Sequence[r.Rule] = ()

    def decide(self, game: HanabiGame) -> Decision:
        view = BotView(game, self.rng)
        for rule in self.rules:
            move = rule(view)
            if move is not None:
                return Decision(move, rule.name)
        # No rule applies (e.g. eight tokens, nothing to tell, nothing safe): a hint never
        # costs a life, so give a random one; discard at random if no hint is possible.
        for rule in (r.TELL_RANDOMLY, r.DISCARD_RANDOMLY):
            move = rule(view)
            if move is not None:
                return Decision(move, f"default: {rule.name}")
        return Decision(self.rng.choice(view.legal), "default: random legal move")


class IGGI(RuleBot):
    name = "iggi"
    rules = (r.PLAY_IF_CERTAIN, r.PLAY_SAFE, r.TELL_PLAYABLE_OUTER, r.OSAWA_DISCARD,
             r.DISCARD_OLDEST)


class Piers(RuleBot):
    name = "piers"
    rules = (r.HAIL_MARY, r.PLAY_SAFE, r.play_probably_safe(0.6, spare_life=True), r.TELL_USEFUL,
             r.tell_dispensable(3), r.OSAWA_DISCARD, r.DISCARD_OLDEST, r.TELL_RANDOMLY,
             r.DISCARD_RANDOMLY)


class VanDenBergh(RuleBot):
    name = "vandenbergh"
    rules = (r.play_probably_safe(0.6, spare_life=True), r.PLAY_SAFE,
             r.discard_probably_useless(0.99), r.TELL_USEFUL, r.TELL_USELESS,
             r.TELL_MOST_INFORMATION, r.discard_probably_useless(0.0))


class Outer(RuleBot):
    name = "outer"
    rules = (r.PLAY_SAFE, r.OSAWA_DISCARD, r.TELL_PLAYABLE_OUTER, r.TELL_UNKNOWN,
             r.DISCARD_RANDOMLY)


class Internal(RuleBot):
    name = "internal"
    rules = (r.PLAY_SAFE, r.OSAWA_DISCARD, r.TELL_PLAYABLE, r.TELL_RANDOMLY, r.DISCARD_RANDOMLY)


class Flawed(RuleBot):
    name = "flawed"
    rules = (r.PLAY_SAFE, r.play_probably_safe(0.25, spare_life=False), r.TELL_RANDOMLY,
             r.OSAWA_DISCARD, r.DISCARD_OLDEST, r.DISCARD_RANDOMLY)


class LegalRandom(Bot):
    name = "legal_random"

    def decide(self, game: HanabiGame) -> Decision:
        return Decision(self.rng.choice(game.legal_moves()), "random legal move")
