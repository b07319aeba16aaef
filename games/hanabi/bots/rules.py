"""Production rules of the Walton-Rivers et al. agents, ported from their definitions in the
original framework (fossgalaxy/hanabi, Java, package ``com.fossgalaxy.games.fireworks.ai``).
Each rule names the class it ports; the behaviour follows that class, not its name.

A rule looks at the view of the player to move and proposes an HLE move string, or None when
it does not fire. As in the original:

* a tell rule never fires without an information token (``AbstractTellRule.canFire``) and a
  discard rule never fires with all eight (``AbstractDiscardRule.canFire``);
* rules walk fixed hand slots in order (see ``view.py``) and the "probably" rules keep the
  LAST slot among equals (they compare with ``>=`` while scanning slots upwards);
* "tell" rules that name the next player tell only the next player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from games.hanabi.bots.view import BotView, known_colour, known_rank
from games.hanabi.cards import COLOURS, NUM_RANKS
from games.hanabi.cards import MAX_INFO_TOKENS as MAX_INFO

Kind = Literal["play", "discard", "tell", "any"]


@dataclass(frozen=True)
class Rule:
    name: str
    fire: Callable[[BotView], str | None]
    kind: Kind = "any"

    def __call__(self, view: BotView) -> str | None:
        if self.kind == "tell" and view.info == 0:
            return None
        if self.kind == "discard" and view.info == MAX_INFO:
            return None
        move = self.fire(view)
        # every rule proposes legal moves by construction; the check keeps a port slip from
        # ever reaching the engine (the original would end the game on a RulesViolation)
        return move if move is not None and move in view.legal_set else None


def if_rule(
    name: str, predicate: Callable[[BotView], bool], success: Rule, failure: Rule | None = None
) -> Rule:
    """``wrapper.IfRule``: ``success`` when the predicate holds, else ``failure`` (if any)."""

    def fire(view: BotView) -> str | None:
        if predicate(view):
            return success(view)
        return failure(view) if failure is not None else None

    return Rule(name, fire)


# ----- tell helpers (AbstractTellRule) ----------------------------------------------------------


def _tell_missing_value_first(view: BotView, seat: int, slot: int) -> str | None:
    """``tellMissingPrioritiseValue``: the rank if unknown, else the colour if unknown."""
    card, know = view.card(seat, slot), view.knowledge(seat, slot)
    assert card is not None and know is not None
    if known_rank(know) is None:
        return view.tell_rank(seat, card)
    if known_colour(know) is None:
        return view.tell_colour(seat, card)
    return None


def _tell_missing_colour_first(view: BotView, seat: int, slot: int) -> str | None:
    """``tellMissingPrioritiseColour``: the colour if unknown, else the rank if unknown."""
    card, know = view.card(seat, slot), view.knowledge(seat, slot)
    assert card is not None and know is not None
    if known_colour(know) is None:
        return view.tell_colour(seat, card)
    if known_rank(know) is None:
        return view.tell_rank(seat, card)
    return None


def _cards(view: BotView, seat: int) -> list[tuple[int, int]]:
    """(slot, card) for the occupied slots of a hand, in slot order."""
    return [(s, c) for s in range(view.hand_size) if (c := view.card(seat, s)) is not None]


# ----- plays -------------------------------------------------------------------------------------


def _play_if_certain(view: BotView) -> str | None:
    """``simple.PlayIfCertain``: colour and value both known and playable; first slot."""
    for slot in range(view.hand_size):
        know = view.knowledge(view.me, slot)
        if know is None:
            continue
        colour, rank = known_colour(know), known_rank(know)
        if colour is not None and rank is not None and view.table(colour) + 1 == rank:
            return view.play(slot)
    return None


def _play_safe_card(view: BotView) -> str | None:
    """``PlaySafeCard``: every unseen copy the slot's hints allow is playable (card
    counting, not hints alone); first such slot."""
    for slot in range(view.hand_size):
        poss = view.possible(slot)
        if poss and all(view.playable(c) for c in poss):
            return view.play(slot)
    return None


def _best_slot(view: BotView, threshold: float, good: Callable[[int], bool]) -> int | None:
    """The scan of ``PlayProbablySafeCard`` / ``DiscardProbablyUselessCard``: probability
    over the unseen copies, kept when ``>=`` the best so far (threshold first), so the last
    slot among equals wins; an empty slot (0/0) never qualifies."""
    best, best_slot = threshold, None
    for slot in range(view.hand_size):
        poss = view.possible(slot)
        total = sum(poss.values())
        if total == 0:
            continue
        p = sum(n for c, n in poss.items() if good(c)) / total
        if p >= best:
            best, best_slot = p, slot
    return best_slot


def play_probably_safe(threshold: float) -> Rule:
    """``random.PlayProbablySafeCard(threshold)``. With threshold 0.0 it always plays some
    card (probability 0 qualifies): Piers's and IGGI2's "hail mary"."""

    def fire(view: BotView) -> str | None:
        slot = _best_slot(view, threshold, view.playable)
        return None if slot is None else view.play(slot)

    return Rule(f"play probably safe card ({threshold})", fire, "play")


# ----- discards ----------------------------------------------------------------------------------


def _discard_safe_card(view: BotView) -> str | None:
    """``DiscardSafeCard``: the first slot whose KNOWN colour/value (hints, no counting)
    make it safe by ``HandUtils.isSafeToDiscard``."""
    for slot in range(view.hand_size):
        know = view.knowledge(view.me, slot)
        if know is not None and view.safe_to_discard(known_colour(know), known_rank(know)):
            return view.discard(slot)
    return None


def _discard_useless_card(view: BotView) -> str | None:
    """``DiscardUselessCard``: a slot of known colour whose known value, or every unseen
    value still possible, lies above what that colour can still reach."""
    for slot in range(view.hand_size):
        know = view.knowledge(view.me, slot)
        if know is None or (colour := known_colour(know)) is None:
            continue
        highest, rank = view.highest_possible(colour), known_rank(know)
        if rank is not None and highest < rank:
            return view.discard(slot)
        poss = view.possible(slot)
        if poss and min(c % NUM_RANKS + 1 for c in poss) > highest:
            return view.discard(slot)
    return None


def _osawa_discard(view: BotView) -> str | None:
    """``osawa.rules.OsawaDiscard``: ``DiscardSafeCard``, else ``DiscardUselessCard``."""
    return _discard_safe_card(view) or _discard_useless_card(view)


def _discard_oldest_first(view: BotView) -> str | None:
    """``DiscardOldestFirst``: the occupied slot drawn longest ago (``TimedHand``), which
    is HLE index 0 since HLE appends each drawn card."""
    return "(Discard 0)" if view.game.hands[view.me] else None


def _discard_randomly(view: BotView) -> str | None:
    """``random.DiscardRandomly``: uniform over occupied slots."""
    slots = [s for s, _ in _cards(view, view.me)]
    return view.discard(view.rng.choice(slots)) if slots else None


def discard_probably_useless(threshold: float) -> Rule:
    """``random.DiscardProbablyUselessCard(threshold)``: useless means
    ``HandUtils.isSafeToDiscard`` of the candidate card."""

    def fire(view: BotView) -> str | None:
        slot = _best_slot(view, threshold, view.card_safe_to_discard)
        return None if slot is None else view.discard(slot)

    return Rule(f"discard probably useless card ({threshold})", fire, "discard")


# ----- hints -------------------------------------------------------------------------------------


def _tell_anyone_about_useful_card(view: BotView) -> str | None:
    """``TellAnyoneAboutUsefulCard``: any other player (next first), first playable card
    whose rank, else colour, its holder does not know."""
    for seat in view.others_from_next():
        for slot, card in _cards(view, seat):
            if view.playable(card) and (hint := _tell_missing_value_first(view, seat, slot)):
                return hint
    return None


def _tell_playable_card_outer(view: BotView) -> str | None:
    """``osawa.rules.TellPlayableCardOuter``: the NEXT player only, first playable card
    whose rank, else colour, is unknown to them (rank first)."""
    seat = view.next_player()
    for slot, card in _cards(view, seat):
        if view.playable(card) and (hint := _tell_missing_value_first(view, seat, slot)):
            return hint
    return None


def _tell_playable_card(view: BotView) -> str | None:
    """``random.TellPlayableCard`` (internal state): the next player's first playable card,
    rank or colour by a coin flip, whatever they already know."""
    seat = view.next_player()
    for _, card in _cards(view, seat):
        if view.playable(card):
            return (
                view.tell_rank(seat, card)
                if view.rng.random() < 0.5
                else view.tell_colour(seat, card)
            )
    return None


def _tell_unknown(view: BotView) -> str | None:
    """``TellUnknown``: the next player only, first card with something unknown, colour
    first."""
    seat = view.next_player()
    for slot, _ in _cards(view, seat):
        if hint := _tell_missing_colour_first(view, seat, slot):
            return hint
    return None


def _tell_randomly(view: BotView) -> str | None:
    """``random.TellRandomly``: the next player only; a uniformly chosen card of theirs,
    then its rank or its colour by a coin flip."""
    seat = view.next_player()
    cards = [c for _, c in _cards(view, seat)]
    if not cards:
        return None
    card = view.rng.choice(cards)
    return view.tell_rank(seat, card) if view.rng.random() < 0.5 else view.tell_colour(seat, card)


def _tell_dispensable(view: BotView) -> str | None:
    """``TellDispensable``: players by seat; for each card, tell the colour if unknown and
    that colour is complete, the rank if unknown and at or below the lowest firework, or,
    with exactly one of the two known, the missing one when the card is already played."""
    low = min(view.game.fireworks)
    for seat in view.others_by_seat():
        for slot, card in _cards(view, seat):
            know = view.knowledge(seat, slot)
            assert know is not None
            colour, rank = card // NUM_RANKS, card % NUM_RANKS + 1
            k_colour, k_rank = known_colour(know), known_rank(know)
            if k_colour is None and view.table(colour) == NUM_RANKS:
                return view.tell_colour(seat, card)
            if k_rank is None and rank <= low:
                return view.tell_rank(seat, card)
            if (k_colour is None) != (k_rank is None) and view.table(colour) >= rank:
                return (
                    view.tell_colour(seat, card) if k_colour is None else view.tell_rank(seat, card)
                )
    return None


def _tell_most_information(view: BotView) -> str | None:
    """``TellMostInformation(newInformation=true)``: over players by seat, ranks 1-5 and
    then colours, the hint touching the most cards whose rank (for a rank hint) or colour
    (for a colour hint) the holder does not yet know; the first strict maximum wins."""
    best, best_count = None, 0
    for seat in view.others_by_seat():
        hand = [(c, view.knowledge(seat, s)) for s, c in _cards(view, seat)]
        for rank in range(1, NUM_RANKS + 1):
            n = sum(
                1
                for c, k in hand
                if k is not None and known_rank(k) is None and c % NUM_RANKS + 1 == rank
            )
            if n > best_count:
                best, best_count = (
                    f"(Reveal player +{(seat - view.me) % view.players} rank {rank})",
                    n,
                )
        # the original's colour enum order differs only in naming; HLE's order is used
        for colour in range(len(COLOURS)):
            n = sum(
                1
                for c, k in hand
                if k is not None and known_colour(k) is None and c // NUM_RANKS == colour
            )
            if n > best_count:
                best = f"(Reveal player +{(seat - view.me) % view.players} color {COLOURS[colour]})"
                best_count = n
    return best


PLAY_IF_CERTAIN = Rule("play if certain", _play_if_certain, "play")
PLAY_SAFE_CARD = Rule("play safe card", _play_safe_card, "play")
OSAWA_DISCARD = Rule("osawa discard", _osawa_discard, "discard")
DISCARD_OLDEST_FIRST = Rule("discard oldest first", _discard_oldest_first, "discard")
DISCARD_RANDOMLY = Rule("discard randomly", _discard_randomly, "discard")
TELL_ANYONE_ABOUT_USEFUL_CARD = Rule(
    "tell anyone about useful card", _tell_anyone_about_useful_card, "tell"
)
TELL_PLAYABLE_CARD_OUTER = Rule("tell playable card outer", _tell_playable_card_outer, "tell")
TELL_PLAYABLE_CARD = Rule("tell playable card", _tell_playable_card, "tell")
TELL_UNKNOWN = Rule("tell unknown", _tell_unknown, "tell")
TELL_RANDOMLY = Rule("tell randomly", _tell_randomly, "tell")
TELL_DISPENSABLE = Rule("tell dispensable", _tell_dispensable, "tell")
TELL_MOST_INFORMATION = Rule("tell most information (new)", _tell_most_information, "tell")


def first_firing(rules: Sequence[Rule], view: BotView) -> tuple[str, str] | None:
    """``ProductionRuleAgent.doMove``: the first rule that proposes a move."""
    for rule in rules:
        move = rule(view)
        if move is not None:
            return move, rule.name
    return None
