"""Bots only make legal moves, are deterministic by seed, and behave like their rule lists."""

from __future__ import annotations

import pytest

from games.hanabi import HanabiGame
from games.hanabi.bots import BOT_CLASSES, UnknownBotError, bot_game, make_bot


@pytest.mark.parametrize("name", sorted(BOT_CLASSES))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_it_makes_only_legal_moves_to_the_end_of_the_game(name, players):
    for seed in range(5):
        game = HanabiGame(seed, players)
        bots = [make_bot(name, seed=seed, seat=s) for s in range(players)]
        while not game.is_terminal():
            move = bots[game.current_player].act(game)
            assert move in game.legal_moves(), (name, seed, game.turn, move)
            game.apply(move)
        assert game.end_reason() in ("perfect", "bomb", "deck")


@pytest.mark.parametrize("name", sorted(BOT_CLASSES))
def test_it_plays_the_same_game_for_the_same_seed(name):
    a = bot_game([name] * 3, 21)
    b = bot_game([name] * 3, 21)
    assert a.moves == b.moves
    c = bot_game([name] * 3, 22)
    assert c.moves != a.moves


def test_rule_bots_beat_legal_random_and_flawed_bombs_out():
    seeds = range(20)
    iggi = [bot_game(["iggi"] * 2, s).hle_score for s in seeds]
    rand = [bot_game(["legal_random"] * 2, s) for s in seeds]
    flawed = [bot_game(["flawed"] * 2, s) for s in seeds]
    assert sum(iggi) / 20 > 10
    assert all(g.end_reason() == "bomb" and g.hle_score == 0 for g in rand)
    assert sum(g.end_reason() == "bomb" for g in flawed) >= 18


def test_iggi_plays_a_card_it_was_told_is_playable():
    game = HanabiGame(0, 2)
    ones = [i for i, c in enumerate(game.hands[1]) if c % 5 == 0]
    assert ones, "seed 0 deals player 1 a rank-1 card"
    game.apply("(Reveal player +1 rank 1)")
    move = make_bot("iggi", seed=0, seat=1).act(game)
    assert move == f"(Play {ones[0]})"


def test_unknown_bot_names_are_rejected():
    with pytest.raises(UnknownBotError, match="unknown Hanabi bot"):
        make_bot("smartbot", seed=0, seat=0)
