"""Production rules of the Walton-Rivers et al. agents, written from their published rule lists.

A rule looks at the view of the player to move and proposes an HLE move string, or None when
it does not apply (or its move would be illegal, e.g. a hint with no information token left,
a discard with all eight). An agent fires the first rule that proposes something.

Interpretations where the rule names leave room (kept consistent across agents):
* "safe" plays and Osawa discards need every card type the hints allow to be playable /
  useless (hints only); "probably" rules weigh those types by the copies this player cannot
  see (card counting);
* "outer" hints tell the holder what they do not yet know about the card, colour first;
  "tell anyone useful card" (Piers, Van den Bergh) tells the rank first. With colour first
  those two agents land 1-1.5 points under their published means, with rank first within
  about one point (measured over the same seeds);
  the "internal" playable-card hint picks colour or rank at random, ignoring what is known;
* hints about useful (playable) cards go to the first other player in turn order who has one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.hanabi.bots.view import BotView
from games.hanabi.cards import COLOURS, NUM_RANKS


@dataclass(frozen=True)
class Rule:
    name: str
    fire: Callable[[BotView], str | None]

    def __call__(self, view: BotView) -> str | None:
        move = self.fire(view)
        return move if move is not None and view.is_legal(move) else None


def _colour_hint(offset: int, card: int) -> str:
    return f"(Reveal player +{offset} color {COLOURS[card // NUM_RANKS]})"


def _rank_hint(offset: int, card: int) -> str:
    return f"(Reveal player +{offset} rank {card % NUM_RANKS + 1})"


def _missing_info_hint(
    view: BotView, offset: int, seat: int, index: int, *, rank_first: bool = False
) -> str | None:
    know = view.knowledge_of(seat)[index]
    card = view.game.hands[seat][index]
    order = ((know.rank_known, _rank_hint), (know.colour_known, _colour_hint))
    for known, hint in order if rank_first else order[::-1]:
        if not known():
            return hint(offset, card)
    return None


# ----- plays --------------------------------------------------------------------------------

def _play_if_certain(view: BotView) -> str | None:
    for i in range(view.hand_len):
        card = view.certain_card(i)
        if card is not None and view.playable(card):
            return f"(Play {i})"
    return None


def _play_safe(view: BotView) -> str | None:
    for i in range(view.hand_len):
        if view.surely_playable(i):
            return f"(Play {i})"
    return None


def play_probably_safe(threshold: float, *, spare_life: bool) -> Rule:
    def fire(view: BotView) -> str | None:
        if spare_life and view.game.lives <= 1:
            return None
        if view.hand_len == 0:
            return None
        best = max(range(view.hand_len), key=view.p_playable)
        return f"(Play {best})" if view.p_playable(best) >= threshold else None

    suffix = ", spare life" if spare_life else ""
    return Rule(f"play probably safe ({threshold}{suffix})", fire)


def _hail_mary(view: BotView) -> str | None:
    """Deck empty (last round): with a life to spare, play the likeliest card."""
    if view.game.deck_size > 0 or view.game.lives <= 1 or view.hand_len == 0:
        return None
    best = max(range(view.hand_len), key=view.p_playable)
    return f"(Play {best})" if view.p_playable(best) > 0.0 else None


# ----- discards -----------------------------------------------------------------------------

def _osawa_discard(view: BotView) -> str | None:
    for i in range(view.hand_len):
        if view.surely_useless(i):
            return f"(Discard {i})"
    return None


def _discard_oldest(view: BotView) -> str | None:
    return "(Discard 0)" if view.hand_len else None


def _discard_randomly(view: BotView) -> str | None:
    return f"(Discard {view.rng.randrange(view.hand_len)})" if view.hand_len else None


def discard_probably_useless(threshold: float) -> Rule:
    def fire(view: BotView) -> str | None:
        if view.hand_len == 0:
            return None
        best = max(range(view.hand_len), key=view.p_useless)
        return f"(Discard {best})" if view.p_useless(best) >= threshold else None

    return Rule(f"discard probably useless ({threshold})", fire)


# ----- hints --------------------------------------------------------------------------------

def _tell_playable(view: BotView, *, rank_first: bool) -> str | None:
    for offset, seat in view.others():
        for i, card in enumerate(view.game.hands[seat]):
            if view.playable(card):
                hint = _missing_info_hint(view, offset, seat, i, rank_first=rank_first)
                if hint is not None:
                    return hint
    return None


def _tell_playable_outer(view: BotView) -> str | None:
    return _tell_playable(view, rank_first=False)


def _tell_useful(view: BotView) -> str | None:
    return _tell_playable(view, rank_first=True)


def _tell_playable_internal(view: BotView) -> str | None:
    """Internal-state agent: it does not track what others know, so it may repeat a hint."""
    for offset, seat in view.others():
        for card in view.game.hands[seat]:
            if view.playable(card):
                return (_colour_hint if view.rng.random() < 0.5 else _rank_hint)(offset, card)
    return None


def _tell_useless(view: BotView) -> str | None:
    """Tell someone about a card they could throw away but do not know it yet."""
    for offset, seat in view.others():
        for i, card in enumerate(view.game.hands[seat]):
            if view.useless(card) and not view.knows_useless(seat, i):
                know = view.knowledge_of(seat)[i]
                # the rank hint is the one that usually proves uselessness (e.g. "these are 1s")
                return _rank_hint(offset, card) if not know.rank_known() else _colour_hint(offset, card)
    return None


def tell_dispensable(max_tokens: int) -> Rule:
    def fire(view: BotView) -> str | None:
        return _tell_useless(view) if view.game.info_tokens <= max_tokens else None

    return Rule(f"tell dispensable (info <= {max_tokens})", fire)


def _tell_unknown(view: BotView) -> str | None:
    for offset, seat in view.others():
        for i in range(len(view.game.hands[seat])):
            hint = _missing_info_hint(view, offset, seat, i)
            if hint is not None:
                return hint
    return None


def _tell_randomly(view: BotView) -> str | None:
    hints = [m for m in view.legal if m.startswith("(Reveal")]
    return view.rng.choice(hints) if hints else None


def _tell_most_information(view: BotView) -> str | None:
    """The hint that changes the holder's knowledge of the most cards."""
    best, best_gain = None, 0
    for offset, seat in view.others():
        hand, know = view.game.hands[seat], view.knowledge_of(seat)
        for colour in range(5):
            gain = sum(1 for c, k in zip(hand, know)
                       if (k.colours != 1 << colour if c // NUM_RANKS == colour else k.colours >> colour & 1))
            if gain > best_gain and any(c // NUM_RANKS == colour for c in hand):
                best, best_gain = f"(Reveal player +{offset} color {COLOURS[colour]})", gain
        for r in range(NUM_RANKS):
            gain = sum(1 for c, k in zip(hand, know)
                       if (k.ranks != 1 << r if c % NUM_RANKS == r else k.ranks >> r & 1))
            if gain > best_gain and any(c % NUM_RANKS == r for c in hand):
                best, best_gain = f"(Reveal player +{offset} rank {r + 1})", gain
    return best


PLAY_IF_CERTAIN = Rule("play if certain", _play_if_certain)
PLAY_SAFE = Rule("play safe card", _play_safe)
HAIL_MARY = Rule("hail mary", _hail_mary)
OSAWA_DISCARD = Rule("osawa discard", _osawa_discard)
DISCARD_OLDEST = Rule("discard oldest", _discard_oldest)
DISCARD_RANDOMLY = Rule("discard randomly", _discard_randomly)
TELL_PLAYABLE_OUTER = Rule("tell playable card (outer)", _tell_playable_outer)
TELL_PLAYABLE = Rule("tell playable card", _tell_playable_internal)
TELL_USEFUL = Rule("tell anyone useful card", _tell_useful)
TELL_USELESS = Rule("tell anyone useless card", _tell_useless)
TELL_UNKNOWN = Rule("tell unknown", _tell_unknown)
TELL_RANDOMLY = Rule("tell randomly", _tell_randomly)
TELL_MOST_INFORMATION = Rule("tell most information", _tell_most_information)
