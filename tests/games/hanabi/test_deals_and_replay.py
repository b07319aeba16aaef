from __future__ import annotations

import random

import pytest

from games.hanabi import HanabiGame, IllegalMoveError, InvalidMoveStringError, deck_order
from games.hanabi.cards import FULL_COUNTS


def play_randomly(game: HanabiGame, rng: random.Random, max_moves: int = 1000) -> None:
    while not game.is_terminal() and max_moves:
        game.apply(rng.choice(game.legal_moves()))
        max_moves -= 1


def test_it_deals_the_same_cards_for_a_seed_whoever_plays():
    a, b = HanabiGame(17, 3), HanabiGame(17, 3)
    assert a.hands == b.hands
    play_randomly(a, random.Random(1))
    play_randomly(b, random.Random(2))
    assert a.moves != b.moves
    # every card that left the deck came off the same shuffled deck, in order
    deck = deck_order(17)
    for game in (a, b):
        dealt = 50 - game.deck_size
        drawn = sorted(
            game.discards
            + [c for h in game.hands for c in h]
            + [c * 5 + r for c, h in enumerate(game.fireworks) for r in range(h)]
        )
        assert drawn == sorted(deck[:dealt])


def test_different_seeds_deal_differently_and_the_deck_is_complete():
    assert deck_order(1) != deck_order(2)
    deck = deck_order(5)
    assert [deck.count(c) for c in range(25)] == list(FULL_COUNTS)


@pytest.mark.parametrize("players", [2, 5])
def test_replay_rebuilds_the_same_state(players):
    game = HanabiGame(9, players)
    play_randomly(game, random.Random(4), max_moves=25)
    again = HanabiGame.replay(9, players, game.moves)
    assert again.hands == game.hands
    assert again.knowledge == game.knowledge
    assert again.fireworks == game.fireworks and again.discards == game.discards
    assert again.observation_string(0) == game.observation_string(0)
    assert again.legal_moves() == game.legal_moves()


def test_clone_is_independent_and_reshuffle_changes_only_the_undealt_cards():
    game = HanabiGame(3, 2)
    play_randomly(game, random.Random(0), max_moves=6)
    twin = game.clone(reshuffle=random.Random(99))
    assert twin.hands == game.hands and twin.observation_string(1) == game.observation_string(1)
    twin.apply(twin.legal_moves()[-1])
    assert twin.turn == game.turn + 1
    assert game.turn == 6


def test_it_rejects_illegal_and_malformed_moves_with_clear_errors():
    game = HanabiGame(0, 2)
    with pytest.raises(InvalidMoveStringError, match="not an HLE move"):
        game.apply("play the red one")
    with pytest.raises(IllegalMoveError, match="not legal"):
        game.apply("(Discard 0)")  # 8 info tokens: discarding is illegal in HLE
    with pytest.raises(IllegalMoveError, match="does not exist"):
        game.apply("(Reveal player +3 rank 1)")
    with pytest.raises(IllegalMoveError, match="move 1"):
        HanabiGame.replay(0, 2, ["(Play 0)", "(Discard 9)"])
