"""Our mirror of the game (hands, hint knowledge, tokens, fireworks, discards) must agree with
what OpenSpiel's own observation reports, for thousands of states from random games."""

from __future__ import annotations

import random

import pytest

from games.hanabi import HanabiGame, card_name


def parse_observation(text: str) -> dict:
    """Split OpenSpiel's HLE observation text into its fields."""
    lines = text.splitlines()
    out: dict = {"hands": [[]]}
    in_hands = False
    for line in lines:
        if line.startswith("Life tokens:"):
            out["lives"] = int(line.split(":")[1])
        elif line.startswith("Info tokens:"):
            out["info"] = int(line.split(":")[1])
        elif line.startswith("Fireworks:"):
            out["fireworks"] = [int(tok[1]) for tok in line.split(":")[1].split()]
        elif line.startswith("Hands:"):
            in_hands = True
        elif line.startswith("Deck size:"):
            in_hands = False
            out["deck"] = int(line.split(":")[1])
        elif line.startswith("Discards:"):
            out["discards"] = line.split(":")[1].split()
        elif in_hands:
            if line == "-----":
                out["hands"].append([])
            elif line == "Cur player":
                out.setdefault("current_offset", len(out["hands"]) - 1)
            else:
                card, knowledge = line.split(" || ")
                hinted, possible = knowledge.split("|")
                out["hands"][-1].append((card, hinted, possible))
    return out


def assert_mirror_matches(game: HanabiGame, observer: int) -> None:
    obs = parse_observation(game.observation_string(observer))
    assert obs["lives"] == game.lives
    assert obs["info"] == game.info_tokens
    assert obs["fireworks"] == game.fireworks
    assert obs["deck"] == game.deck_size
    assert sorted(obs["discards"]) == sorted(card_name(c) for c in game.discards)
    assert len(obs["hands"]) == game.players
    for offset, shown in enumerate(obs["hands"]):
        seat = (observer + offset) % game.players
        hand, knowledge = game.hands[seat], game.knowledge[seat]
        assert len(shown) == len(hand), (seat, shown, hand)
        for i, (card, hinted, possible) in enumerate(shown):
            expected_card = "XX" if seat == observer else card_name(hand[i])
            assert card == expected_card, (seat, i)
            assert hinted == knowledge[i].hinted_text(), (seat, i, game.moves)
            assert possible == knowledge[i].possible_text(), (seat, i, game.moves)
    if not game.is_terminal():
        assert (observer + obs["current_offset"]) % game.players == game.current_player


def random_game_states(seed: int, players: int, hint_bias: float):
    """Yield every state of one random game; hints are favoured so knowledge gets rich."""
    rng = random.Random(seed * 7919 + players)
    game = HanabiGame(seed, players)
    yield game
    while not game.is_terminal():
        legal = game.legal_moves()
        hints = [m for m in legal if m.startswith("(Reveal")]
        plays = [m for m in legal if m.startswith("(Play")]
        # avoid bombing out early so games reach deep states with long knowledge histories
        if hints and rng.random() < hint_bias:
            move = rng.choice(hints)
        elif plays and rng.random() < 0.15:
            move = rng.choice(plays)
        else:
            move = rng.choice([m for m in legal if not m.startswith("(Play")] or legal)
        game.apply(move)
        yield game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_it_mirrors_openspiel_observations_over_thousands_of_states(players):
    states = 0
    for seed in range(40):
        for game in random_game_states(seed, players, hint_bias=0.6):
            observers = range(players) if not game.is_terminal() else [0]
            for observer in observers:
                assert_mirror_matches(game, observer)
            states += 1
    assert states > 1500


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_it_scores_like_hle_and_keeps_the_fireworks_sum_on_bomb_out(players):
    bombs = 0
    for seed in range(30):
        rng = random.Random(seed)
        game = HanabiGame(seed, players)
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_moves()))
        returns = game.pyspiel_state().returns()
        # OpenSpiel's rewards add up to HLE's score (0 after a bomb-out)
        assert returns[0] == pytest.approx(game.hle_score)
        if game.end_reason() == "bomb":
            bombs += 1
            assert game.lives == 0 and game.hle_score == 0
            assert game.fireworks_score == sum(game.fireworks)
        else:
            assert game.hle_score == game.fireworks_score
    assert bombs > 0


def test_negative_hints_narrow_possibilities_without_setting_the_hinted_colour():
    game = HanabiGame(11, 2)
    target_cards = game.hands[1]
    present = target_cards[0] // 5
    game.apply(f"(Reveal player +1 color {'RYGWB'[present]})")
    for i, card in enumerate(game.hands[1]):
        know = game.knowledge[1][i]
        if card // 5 == present:
            assert know.colour == present and know.possible_colours() == (present,)
        else:
            assert know.colour is None and present not in know.possible_colours()
    assert_mirror_matches(game, 1)


def test_negatives_alone_can_pin_a_colour_while_hle_still_shows_it_unhinted():
    """HLE's 'hinted' colour comes only from positive hints; we report the same, and
    colour_known() tells the deduction apart."""
    found = 0
    for seed in range(60):
        for game in random_game_states(seed, 2, hint_bias=0.8):
            for seat in range(2):
                for know in game.knowledge[seat]:
                    if know.colour is None and know.colour_known():
                        found += 1
                        assert_mirror_matches(game, seat)
    assert found > 0
