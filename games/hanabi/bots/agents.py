"""The rule-based agents of Walton-Rivers et al. (2017), as the presets of their framework
(fossgalaxy/hanabi: ``IGGIFactory``, ``OsawaFactory``, ``VanDenBerghFactory``) define them, and a
legal-random baseline (``IGGIFactory`` "legal_random": uniform over legal moves)."""

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
        fired = r.first_firing(self.rules, view)
        if fired is not None:
            return Decision(*fired)
        # No rule fired. The original ProductionRuleAgent throws here and its GameRunner
        # ends the game early; an HLE game cannot stop, so we use the policy the original
        # documents as the old default (IGGIFactory "forgiving": tell randomly, else discard
        # randomly), and a random legal move only if neither is legal.
        fired = r.first_firing((r.TELL_RANDOMLY, r.DISCARD_RANDOMLY), view)
        if fired is not None:
            return Decision(fired[0], f"default: {fired[1]}")
        return Decision(self.rng.choice(view.legal), "default: random legal move")


def _lives_above_one(view: BotView) -> bool:
    return view.lives > 1


def _hail_mary_time(view: BotView) -> bool:
    """``lives > 1 && !state.getDeck().hasCardsLeft()`` as the original evaluates it: the
    agent's own deck is every card it has not seen, its own hand included, so the
    condition holds only once it holds no cards. The hail mary therefore never plays in
    the original's games, and a faithful port does not play it either."""
    return view.lives > 1 and sum(view.unseen) == 0


HAIL_MARY = r.if_rule("hail mary", _hail_mary_time, r.play_probably_safe(0.0))


class IGGI(RuleBot):
    """``IGGIFactory.buildIGGIPlayer`` ("iggi")."""

    name = "iggi"
    rules = (
        r.PLAY_IF_CERTAIN,
        r.PLAY_SAFE_CARD,
        r.TELL_ANYONE_ABOUT_USEFUL_CARD,
        r.OSAWA_DISCARD,
        r.DISCARD_OLDEST_FIRST,
        r.TELL_RANDOMLY,
    )


class Piers(RuleBot):
    """``IGGIFactory.buildPiersPlayer`` ("piers")."""

    name = "piers"
    rules = (
        HAIL_MARY,
        r.PLAY_SAFE_CARD,
        r.if_rule(
            "play probably safe card (0.6) with a life to spare",
            _lives_above_one,
            r.play_probably_safe(0.6),
        ),
        r.TELL_ANYONE_ABOUT_USEFUL_CARD,
        r.if_rule("tell dispensable (info < 4)", lambda v: v.info < 4, r.TELL_DISPENSABLE),
        r.OSAWA_DISCARD,
        r.DISCARD_OLDEST_FIRST,
        r.TELL_RANDOMLY,
        r.DISCARD_RANDOMLY,
    )


class VanDenBergh(RuleBot):
    """``VanDenBerghFactory.buildAgent()`` ("vdb-paper"): wp 0.6, wd 1.0, hints
    NEXT_USEFUL_THEN_MOST_CARDS, discards MOST_CERTAIN_IS_USELESS. The variant with a
    "tell useless card" rule (NEXT_USEFUL_THEN_NEXT_USELESS_THEN_MOST_CARDS) is not the one
    the factory's paper preset uses."""

    name = "vandenbergh"
    rules = (
        r.if_rule(
            "play probably safe card (0.6), else play safe card",
            _lives_above_one,
            r.play_probably_safe(0.6),
            r.PLAY_SAFE_CARD,
        ),
        r.discard_probably_useless(1.0),
        r.TELL_ANYONE_ABOUT_USEFUL_CARD,
        r.TELL_MOST_INFORMATION,
        r.discard_probably_useless(0.0),
    )


class Outer(RuleBot):
    """``OsawaFactory.buildOuterState`` ("outer")."""

    name = "outer"
    rules = (
        r.PLAY_SAFE_CARD,
        r.OSAWA_DISCARD,
        r.TELL_PLAYABLE_CARD_OUTER,
        r.TELL_UNKNOWN,
        r.DISCARD_RANDOMLY,
    )


class Internal(RuleBot):
    """``OsawaFactory.buildInternalState`` ("internal")."""

    name = "internal"
    rules = (
        r.PLAY_SAFE_CARD,
        r.OSAWA_DISCARD,
        r.TELL_PLAYABLE_CARD,
        r.TELL_RANDOMLY,
        r.DISCARD_RANDOMLY,
    )


class Flawed(RuleBot):
    """``IGGIFactory.buildFlawedPlayer`` ("flawed")."""

    name = "flawed"
    rules = (
        r.PLAY_SAFE_CARD,
        r.play_probably_safe(0.25),
        r.TELL_RANDOMLY,
        r.OSAWA_DISCARD,
        r.DISCARD_OLDEST_FIRST,
        r.DISCARD_RANDOMLY,
    )


class LegalRandom(Bot):
    name = "legal_random"

    def decide(self, game: HanabiGame) -> Decision:
        return Decision(self.rng.choice(game.legal_moves()), "random legal move")
