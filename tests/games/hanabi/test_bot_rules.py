"""Each ported rule of the original framework (fossgalaxy/hanabi) on a constructed state.

A state is built from a stacked deck (hands dealt player by player, as HLE deals) and a few
moves, so every test shows the position it reasons about.
"""

from __future__ import annotations

import random

from games.hanabi import HanabiGame
from games.hanabi.bots import make_bot
from games.hanabi.bots import rules as r
from games.hanabi.bots.agents import HAIL_MARY, VanDenBergh
from games.hanabi.bots.view import BotView
from games.hanabi.cards import parse_card
from tests.games.hanabi.stacking import stacked


def view(game: HanabiGame, seed: int = 0) -> BotView:
    return BotView(game, random.Random(seed))


# ----- hand slots (Hand / TimedHand) --------------------------------------------------------


def test_a_drawn_card_takes_the_slot_its_predecessor_left():
    game = stacked(2, "R1 Y1 G1 W1 B1", "R2 Y2 G2 W2 B2", moves=("(Play 1)",))
    # HLE shifted the hand left and appended the new card at index 4; the original keeps
    # it in slot 1, so slot 1 now holds HLE index 4
    assert game.slots[0] == [0, 4, 1, 2, 3]
    assert [game.hands[0][i] for i in game.slots[0]] == [
        parse_card("R1"),
        game.hands[0][4],
        parse_card("G1"),
        parse_card("W1"),
        parse_card("B1"),
    ]
    assert game.clone().slots == game.slots


def test_rules_walk_slots_not_hle_indices():
    # p0 discards slot 0; its replacement G1 sits in slot 0 but at HLE index 4. After p1
    # tells p0 "rank 1", both G1 and Y1 are safe; the original plays the first SLOT, which
    # holds the new card, not the first HLE index (Y1).
    game = stacked(
        2,
        "R3 Y1 G3 W3 B3",
        "R4 Y4 G4 W4 B4",
        "G1",
        moves=(
            "(Reveal player +1 rank 4)",
            "(Reveal player +1 rank 3)",
            "(Discard 0)",
            "(Reveal player +1 rank 1)",
        ),
    )
    assert game.slots[0] == [4, 0, 1, 2, 3]
    assert r.PLAY_SAFE_CARD(view(game)) == "(Play 4)"


# ----- plays ----------------------------------------------------------------------------------


def test_play_safe_card_counts_the_cards_the_player_cannot_see():
    # p0's slot 1 is known red; every R2-R5 is in p1's or p2's hand, so it must be an R1.
    game = stacked(
        3,
        "G3 R1 G4 B3 B4",
        "R2 R2 R3 R3 R4",
        "R4 R5 Y3 Y4 W3",
        moves=(
            "(Reveal player +1 rank 2)",
            "(Reveal player +2 color R)",
            "(Reveal player +2 rank 2)",
        ),
    )
    v = view(game)
    assert r.PLAY_IF_CERTAIN(v) is None  # hints alone leave its rank open
    assert r.PLAY_SAFE_CARD(v) == "(Play 1)"


def test_probably_rules_take_the_last_slot_among_equals_and_fire_at_probability_zero():
    # p0 holds five 5s and knows it: nothing is playable, every slot has probability 0
    game = stacked(
        2,
        "R5 Y5 G5 W5 B5",
        "R1 Y1 G1 W1 B1",
        moves=("(Reveal player +1 rank 1)", "(Reveal player +1 rank 5)"),
    )
    v = view(game)
    assert r.play_probably_safe(0.6)(v) is None
    assert r.play_probably_safe(0.0)(v) == "(Play 4)"  # the hail mary's threshold
    assert r.discard_probably_useless(0.0)(v) == "(Discard 4)"
    fresh = view(stacked(2, "R5 Y5 G5 W5 B5", "R1 Y1 G1 W1 B1"))
    assert r.play_probably_safe(0.0)(fresh) == "(Play 4)"  # all equal: the last slot


def test_the_hail_mary_condition_is_the_original_players_view_of_the_deck():
    # The original tests "no cards left in my deck", and a player's deck holds its own hand,
    # so with cards in hand the hail mary never fires even when the real deck is empty.
    game = HanabiGame(0, 2)
    bots = [make_bot("iggi", seed=0, seat=s) for s in range(2)]
    while game.deck_size > 0 and not game.is_terminal():
        game.apply(bots[game.current_player].act(game))
    assert game.deck_size == 0 and not game.is_terminal() and game.lives > 1
    v = view(game)
    assert r.play_probably_safe(0.0)(v) is not None
    assert HAIL_MARY(v) is None


# ----- discards -------------------------------------------------------------------------------


def test_van_den_bergh_discards_only_a_certainly_useless_card():
    # p0 plays R1, then learns its other R1 is a "1" (could still be Y1..B1: p < 1), then
    # that it is red: an R1 with R1 already played is useless with probability 1
    hands = ("R1 R1 Y3 Y4 G3", "R3 Y1 Y1 G4 B4", "W4")
    game = stacked(2, *hands, moves=("(Play 0)", "(Reveal player +1 rank 1)"))
    assert r.discard_probably_useless(1.0)(view(game)) is None
    game.apply("(Reveal player +1 rank 3)")
    game.apply("(Reveal player +1 color R)")
    assert game.slots[0] == [4, 0, 1, 2, 3]
    assert r.discard_probably_useless(1.0)(view(game)) == "(Discard 0)"
    assert make_bot("vandenbergh", seed=0, seat=0).decide(game).move == "(Discard 0)"


# ----- hints ----------------------------------------------------------------------------------


def test_iggi_tells_anyone_about_a_useful_card_rank_first():
    # 3 players: the next player holds nothing playable, the one after holds R1
    game = stacked(3, "R3 R4 G3 W3 B3", "Y3 Y4 G4 W4 B4", "Y2 R1 G2 W2 B2")
    v = view(game)
    assert r.TELL_ANYONE_ABOUT_USEFUL_CARD(v) == "(Reveal player +2 rank 1)"
    assert make_bot("iggi", seed=0, seat=0).act(game) == "(Reveal player +2 rank 1)"
    # once the rank is known, the colour
    told = stacked(
        3,
        "R3 R4 G3 W3 B3",
        "Y3 Y4 G4 W4 B4",
        "Y2 R1 G2 W2 B2",
        moves=(
            "(Reveal player +2 rank 1)",
            "(Reveal player +2 color R)",
            "(Reveal player +2 color G)",
        ),
    )
    assert r.TELL_ANYONE_ABOUT_USEFUL_CARD(view(told)) == "(Reveal player +2 color R)"


def test_tell_playable_card_outer_tells_the_next_player_only_rank_first():
    game = stacked(3, "R3 R4 G3 W3 B3", "Y3 Y4 G4 W4 B4", "Y2 R1 G2 W2 B2")
    assert r.TELL_PLAYABLE_CARD_OUTER(view(game)) is None  # only p2 has a playable card
    game = stacked(3, "R3 R4 G3 W3 B3", "Y3 G1 G4 W4 B4", "Y2 R1 G2 W2 B2")
    assert r.TELL_PLAYABLE_CARD_OUTER(view(game)) == "(Reveal player +1 rank 1)"


def test_tell_most_information_counts_new_touches_ranks_before_colours():
    game = stacked(2, "Y2 Y3 G2 W2 B2", "R3 R4 G3 B1 Y5")
    v = view(game)
    # rank 3 and colour red both touch two cards: ranks are tried first, strict max wins
    assert r.TELL_MOST_INFORMATION(v) == "(Reveal player +1 rank 3)"
    game.apply("(Reveal player +1 rank 3)")
    game.apply("(Reveal player +1 rank 2)")
    # the 3s' rank is known now: telling "3" again would touch 0 new cards; red touches 2
    assert r.TELL_MOST_INFORMATION(view(game)) == "(Reveal player +1 color R)"


def test_van_den_bergh_has_no_tell_useless_card_rule():
    # R1 is played, so p1's R1 is useless; the corrected agent tells the most information
    # (rank 3: two cards) instead of pointing at the useless card
    game = stacked(
        2, "R1 Y4 G4 W4 B4", "R1 G3 G4 B3 B4", "R5", moves=("(Play 0)", "(Reveal player +1 rank 4)")
    )
    assert [rule.name for rule in VanDenBergh.rules][2:4] == [
        "tell anyone about useful card",
        "tell most information (new)",
    ]
    assert make_bot("vandenbergh", seed=0, seat=0).decide(game).move == "(Reveal player +1 rank 3)"


def test_tell_randomly_tells_the_next_player_about_one_of_their_cards():
    game = stacked(3, "R3 R4 G3 W3 B3", "Y3 Y4 G4 W4 B4", "Y2 R1 G2 W2 B2")
    told = {r.TELL_RANDOMLY(view(game, seed)) for seed in range(200)}
    assert all(m.startswith("(Reveal player +1 ") for m in told)
    assert told == {
        "(Reveal player +1 rank 3)",
        "(Reveal player +1 rank 4)",
        "(Reveal player +1 color Y)",
        "(Reveal player +1 color G)",
        "(Reveal player +1 color W)",
        "(Reveal player +1 color B)",
    }


def test_tell_unknown_tells_the_next_player_colour_first():
    game = stacked(3, "R3 R4 G3 W3 B3", "Y3 Y4 G4 W4 B4", "Y2 R1 G2 W2 B2")
    assert r.TELL_UNKNOWN(view(game)) == "(Reveal player +1 color Y)"
    game = stacked(
        3,
        "R3 R4 G3 W3 B3",
        "Y3 Y4 G4 W4 B4",
        "Y2 R1 G2 W2 B2",
        moves=(
            "(Reveal player +1 color Y)",
            "(Reveal player +1 color R)",
            "(Reveal player +1 color G)",
        ),
    )
    # p1's first two cards are known yellow: the first unknown attribute is slot 0's rank
    assert r.TELL_UNKNOWN(view(game)) == "(Reveal player +1 rank 3)"


def test_tell_and_discard_rules_respect_the_token_limits():
    game = stacked(2, "R3 R4 G3 W3 B3", "Y3 G1 G4 W4 B4")
    v = view(game)  # eight tokens
    assert r.DISCARD_RANDOMLY(v) is None and r.OSAWA_DISCARD(v) is None
    assert r.DISCARD_OLDEST_FIRST(v) is None
    assert r.TELL_RANDOMLY(v) is not None


def test_tell_dispensable_completes_a_half_known_card_that_is_already_played():
    # R1 is on the table; p1 knows its card 0 is a "1" but not its colour: telling "red"
    # shows it can go (Piers's TellDispensable, under four tokens in that agent)
    game = stacked(
        2,
        "R1 Y3 G3 W3 B3",
        "R1 G4 W4 B4 Y4",
        moves=(
            "(Play 0)",
            "(Reveal player +1 rank 3)",
            "(Reveal player +1 rank 1)",
            "(Reveal player +1 rank 3)",
        ),
    )
    assert r.TELL_DISPENSABLE(view(game)) == "(Reveal player +1 color R)"
    assert [rule.name for rule in make_bot("piers", seed=0, seat=0).rules][
        4
    ] == "tell dispensable (info < 4)"
