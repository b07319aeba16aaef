"""The Hanabi evaluator plays whole games, re-asks, falls back, checkpoints and resumes."""

from __future__ import annotations

import json
import random

import pytest

from evaluators.base import ConfigError, EvalContext, ItemKey, ModelConfig, StoredOutcome
from evaluators.hanabi import BUILTINS, DEFAULT_BENCHMARKS, EVALUATOR
from evaluators.hanabi.players import fallback_move
from games.hanabi import HanabiGame
from games.hanabi.bots import bot_game
from tests.evaluators.hanabi.scripted import ScriptedModel

LLM = ModelConfig(slug="llm", model="openai/test-model")
IGGI = ModelConfig(slug="builtin-iggi", model="builtin/iggi")


def resolver(slug):
    return {
        "builtin-iggi": IGGI,
        "builtin-piers": ModelConfig(slug="builtin-piers", model="builtin/piers"),
    }[slug]


def test_a_builtin_bot_game_matches_the_bot_playing_alone():
    out = EVALUATOR.evaluate(
        config={"players": 3, "setting": None},
        model=IGGI,
        item=ItemKey("seed-5"),
        ctx=EvalContext(generate=None),
    )
    # per-turn bot RNG streams differ from bot_game's, but IGGI's rules never draw randomly
    assert out.scores["hle_score"] == bot_game(["iggi"] * 3, 5).hle_score
    assert out.score == out.scores["fireworks_score"]
    assert out.details["seat_models"] == ["builtin-iggi"] * 3
    replayed = HanabiGame.replay(5, 3, [m["move"] for m in out.details["moves"]])
    assert replayed.fireworks_score == out.scores["fireworks_score"]


@pytest.mark.parametrize("setting", ["watson", "sherlock", "mycroft"])
def test_an_llm_game_counts_invalid_replies_and_fallbacks(setting):
    model = ScriptedModel(garbage_every=3)
    out = EVALUATOR.evaluate(
        config={"players": 2, "setting": setting},
        model=LLM,
        item=ItemKey("seed-1"),
        ctx=EvalContext(generate=model),
    )
    moves = out.details["moves"]
    assert out.scores["end_reason"] in ("perfect", "bomb", "deck")
    assert out.scores["turns"] == len(moves) == out.scores["model_moves"]
    assert out.scores["invalid_replies"] == sum(len(m["errors"]) for m in moves) > 0
    assert out.scores["calls"] == len(model.calls)
    assert out.scores["input_tokens"] == 100 * len(model.calls)
    for m in moves:
        assert m["prompt_hash"] and m["raw_replies"]
        assert len(m["raw_replies"]) == len(m["errors"]) + (0 if m["fallback"] else 1)
    reasked = [c for c in model.calls if len(c) > 2]
    assert reasked and "could not be used" in reasked[0][-1]["content"]
    roles = {t["role"] for t in out.transcript}
    assert {"prompt", "reply", "parsed", "move", "error"} <= roles
    # Sherlock shows engine possibilities; Watson and Mycroft do not
    first_prompt = model.calls[0][1]["content"]
    assert ("still possible" in first_prompt) == (setting == "sherlock")


@pytest.mark.parametrize("policy", ["discard_oldest", "first_legal", "random_legal"])
def test_a_player_whose_every_reply_is_garbage_never_plays_blind(policy):
    # the game opens with eight hint tokens, where discarding is illegal
    model = ScriptedModel(always_garbage=True)
    out = EVALUATOR.evaluate(
        config={"players": 2, "setting": "watson", "max_reasks": 3, "fallback": policy},
        model=LLM,
        item=ItemKey("seed-2"),
        ctx=EvalContext(generate=model),
    )
    moves = out.details["moves"]
    assert all(m["fallback"] for m in moves)
    assert out.scores["fallbacks"] == len(moves)
    assert all(len(m["raw_replies"]) == 4 for m in moves)  # first ask + 3 re-asks
    game = HanabiGame(2, 2)
    assert game.info_tokens == 8
    for m in moves:
        assert m["move"] in game.legal_moves()
        assert not m["move"].startswith("(Play")  # never a blind play
        assert m["fallback_rule"].startswith(f"{policy}: ")
        if policy == "discard_oldest":
            kind = "discard" if m["move"].startswith("(Discard") else "hint"
            assert kind in m["fallback_rule"]
            assert m["move"] == "(Discard 0)" or "(Discard 0)" not in game.legal_moves()
        game.apply(m["move"])
    assert moves[0]["move"].startswith("(Reveal")  # eight tokens: a hint, not Play 0
    if policy == "discard_oldest":
        assert "not legal" in moves[0]["fallback_rule"]
    assert out.scores["lives_left"] == 3 and out.scores["end_reason"] == "deck"
    # the transcript names the move actually taken, not just the policy
    notes = [t["text"] for t in out.transcript if t.get("fallback")]
    assert notes[0].endswith(moves[0]["move"]) and "hint" in notes[0]


def test_the_fallback_plays_only_when_nothing_else_is_legal():
    game = HanabiGame(0, 2)
    rng = random.Random(0)
    for policy in ("discard_oldest", "first_legal", "random_legal"):
        move, taken = fallback_move(game, ["(Play 0)", "(Play 1)"], policy, rng)
        assert move == "(Play 0)" and "no discard or hint is legal" in taken


def test_mycroft_memory_is_the_same_seats_previous_turn_only():
    model = ScriptedModel()
    EVALUATOR.evaluate(
        config={"players": 2, "setting": "mycroft"},
        model=LLM,
        item=ItemKey("seed-4"),
        ctx=EvalContext(generate=model),
    )
    first, second, third = (c[1]["content"] for c in model.calls[:3])
    assert "Working memory: none yet" in first and "Working memory: none yet" in second
    assert "You are P0" in third.split("[your reply]")[0]  # seat 0's memory, not seat 1's
    assert "[your reply]" in third


def test_a_killed_game_resumes_without_repeating_a_turn():
    class Crash(Exception):
        pass

    checkpoints = []

    def crash_after_ten(state):
        checkpoints.append(json.loads(json.dumps(state)))  # what the database would store
        if len(checkpoints) == 10:
            raise Crash

    first = ScriptedModel(garbage_every=4)
    with pytest.raises(Crash):
        EVALUATOR.evaluate(
            config={"players": 3, "setting": "mycroft"},
            model=LLM,
            item=ItemKey("seed-8"),
            ctx=EvalContext(generate=first, checkpoint=crash_after_ten),
        )
    second = ScriptedModel(garbage_every=4)
    resumed = EVALUATOR.evaluate(
        config={"players": 3, "setting": "mycroft"},
        model=LLM,
        item=ItemKey("seed-8"),
        ctx=EvalContext(generate=second, resume=checkpoints[-1]),
    )
    turns = [m["turn"] for m in resumed.details["moves"]]
    assert turns == list(range(len(turns)))
    # the resumed worker asked only about turns 10 onwards
    assert second.calls and "Turn 11." in second.calls[0][-1]["content"]
    assert resumed.details["moves"][:10] == checkpoints[-1]["moves"]


def test_cross_play_rotates_the_models_seat_over_seeds():
    config = {"players": 3, "setting": "watson", "mode": "cross", "partners": ["builtin-iggi"]}
    seats = []
    for seed in range(3):
        out = EVALUATOR.evaluate(
            config=config,
            model=LLM,
            item=ItemKey(f"seed-{seed}"),
            ctx=EvalContext(generate=ScriptedModel(), resolve_model=resolver),
        )
        seats.append(out.details["model_seats"])
        assert out.details["seat_models"].count("llm") == 1
        assert all(m["agent"] == "llm" for m in out.details["moves"] if m["seat"] in seats[-1])
        assert all(m["rule"] for m in out.details["moves"] if m["seat"] not in seats[-1])
    assert seats == [[0], [1], [2]]


def test_regret_is_measured_when_enabled():
    config = {
        "players": 2,
        "setting": None,
        "regret": {"enabled": True, "rollouts": 2, "max_candidates": 3},
    }
    out = EVALUATOR.evaluate(
        config=config,
        model=ModelConfig(slug="r", model="builtin/legal_random"),
        item=ItemKey("seed-0"),
        ctx=EvalContext(generate=None),
    )
    regrets = [m["regret"] for m in out.details["moves"]]
    assert all(r["regret_se"] >= 0 and len(r["candidates"]) == 3 for r in regrets)
    assert out.scores["mean_regret"] == pytest.approx(
        sum(r["regret"] for r in regrets) / len(regrets)
    )
    assert out.scores["mean_regret_se"] > 0
    # random play leaves points on the table
    assert out.scores["mean_regret"] > 2 * out.scores["mean_regret_se"]


def test_aggregate_follows_the_metrics_contract():
    config = {"players": 2, "setting": "watson"}
    outcomes = []
    for seed in range(3):
        out = EVALUATOR.evaluate(
            config=config,
            model=LLM,
            item=ItemKey(f"seed-{seed}"),
            ctx=EvalContext(generate=ScriptedModel(garbage_every=5)),
        )
        outcomes.append(
            StoredOutcome(f"seed-{seed}", 0, "done", out.score, out.scores, out.details)
        )
    outcomes.append(StoredOutcome("seed-3", 0, "failed", None, {}, {}))
    metrics = EVALUATOR.aggregate(config=config, outcomes=outcomes)
    scores = [o.score for o in outcomes[:3]]
    assert scores == [o.scores["hle_score"] for o in outcomes[:3]]  # the headline is HLE's
    assert metrics["score"] == pytest.approx(sum(scores) / 3) == metrics["mean_hle_score"]
    fireworks = [o.scores["fireworks_score"] for o in outcomes[:3]]
    assert metrics["mean_fireworks_score"] == pytest.approx(sum(fireworks) / 3)
    assert metrics["score_se"] is not None and metrics["hle_score_se"] is not None
    assert metrics["n_items"] == 4 and metrics["n_failed"] == 1 and metrics["games"] == 3
    for key in (
        "players",
        "setting",
        "mode",
        "partners",
        "mean_hle_score",
        "perfect_rate",
        "bomb_rate",
        "mean_turns",
        "invalid_replies",
        "fallbacks",
        "mean_regret",
    ):
        assert key in metrics
    assert metrics["invalid_replies"] == sum(o.scores["invalid_replies"] for o in outcomes[:3])
    json.dumps(metrics)


def test_config_validation_names_the_field():
    with pytest.raises(ConfigError, match="players"):
        EVALUATOR.validate_config({"players": 7})
    with pytest.raises(ConfigError, match="partners"):
        EVALUATOR.validate_config({"mode": "cross"})
    with pytest.raises(ConfigError, match="fallback"):
        EVALUATOR.validate_config({"fallback": "resign"})
    keys = EVALUATOR.items({"players": 2, "mode": "cross", "partners": ["a", "b"]}, samples=2)
    assert [k.key for k in keys] == ["seed-0@a", "seed-1@a", "seed-0@b", "seed-1@b"]
    assert [k.key for k in EVALUATOR.items({"seeds": [4, 9]}, samples=10)] == ["seed-4", "seed-9"]


def test_builtins_and_default_benchmarks_are_valid():
    assert set(BUILTINS) >= {
        "iggi",
        "piers",
        "vandenbergh",
        "outer",
        "internal",
        "flawed",
        "legal_random",
    }
    for bench in DEFAULT_BENCHMARKS:
        EVALUATOR.validate_config(bench["config"])
    assert len({b["slug"] for b in DEFAULT_BENCHMARKS}) == len(DEFAULT_BENCHMARKS)
