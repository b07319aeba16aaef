"""Regret on constructed states: judged from the mover's information, common random numbers,
a standard error, hint candidates, no bias from taking the max of noisy means."""

from __future__ import annotations

import random

from evaluators.hanabi.regret import (
    candidate_moves,
    game_regrets,
    mean_regret,
    move_regret,
    sample_world,
)
from games.hanabi import HanabiGame
from games.hanabi.bots import bot_game
from tests.games.hanabi.stacking import stacked


def last_life() -> HanabiGame:
    """2 players, p0 to move with one life left; p0 was told its card 0 is a 5 (unplayable
    on empty fireworks), and p1 holds a playable R1 that p0 can tell about."""
    game = stacked(
        2,
        "R5 Y3 G2 W4 B3",
        "R1 G3 W2 B2 Y4",
        "G4 W3",
        moves=("(Play 1)", "(Play 1)", "(Reveal player +1 rank 4)", "(Reveal player +1 rank 5)"),
    )
    assert game.current_player == 0 and game.lives == 1
    return game


def test_sampled_worlds_keep_the_public_history_and_agree_with_the_hints():
    game = last_life()
    for seed in range(20):
        world = sample_world(game, 0, random.Random(seed))
        assert world.moves == game.moves
        assert world.hands[1] == game.hands[1]  # what p0 sees is fixed
        assert world.knowledge == game.knowledge  # every hint touched the same cards
        assert world.fireworks == game.fireworks and world.discards == game.discards
        assert all(k.may_be(c) for c, k in zip(world.hands[0], world.knowledge[0]))
    hands = {tuple(sample_world(game, 0, random.Random(s)).hands[0]) for s in range(20)}
    assert len(hands) > 1  # the unknown cards are resampled


def test_candidates_include_hints():
    game = last_life()
    moves = candidate_moves(game, "(Play 0)", "iggi", limit=60)
    assert set(moves) == set(game.legal_moves())
    assert any(m.startswith("(Reveal") for m in moves)


def test_a_blunder_has_clearly_positive_regret_and_the_best_move_about_zero():
    game = last_life()
    blunder = move_regret(game, "(Play 0)", rollouts=4)  # a known 5, the last life: 0 points
    assert blunder.value == 0.0
    assert blunder.regret > 3 * blunder.regret_se and blunder.regret > 3
    assert blunder.best_move != "(Play 0)" and set(blunder.candidates) == set(game.legal_moves())
    best = move_regret(game, blunder.best_move, rollouts=4)
    assert best.best_move == blunder.best_move
    assert best.regret == 0.0 and best.regret_se == 0.0


def test_a_bots_own_moves_show_regret_within_one_standard_error_of_zero():
    game = bot_game(["iggi", "iggi"], 0)
    regrets = game_regrets(0, 2, game.moves[:16], {0}, team="iggi", rollouts=4)
    assert len(regrets) == 8
    m, se = mean_regret(regrets)
    assert se > 0 and abs(m) <= se
    # the old estimator (best selection mean minus the move's, on the same worlds) is biased
    # upwards by taking a max over noisy means: it charges the bot for its own moves
    naive = [max(u for u, _ in r.candidates.values()) - r.candidates[r.move][0] for r in regrets]
    assert sum(naive) / len(naive) > m + 2 * se
