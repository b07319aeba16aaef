"""Both exports are self-contained and round-trip: replaying a record from its own deck and
moves reproduces the stored scores, and a model's prompts are rebuilt exactly."""

from __future__ import annotations

import io
import json

from evaluators.base import EvalContext, ItemKey, ModelConfig
from evaluators.hanabi import EVALUATOR, game_log, game_rewards, verify_export, write_jsonl
from tests.evaluators.hanabi.scripted import ScriptedModel

LLM = ModelConfig(slug="llm", model="openai/test-model")
IGGI = ModelConfig(slug="builtin-iggi", model="builtin/iggi")


def stored(config, model, key, generate=None, resolve=None):
    """An outcome as the database returns it (through JSON)."""
    out = EVALUATOR.evaluate(
        config=config,
        model=model,
        item=ItemKey(key),
        ctx=EvalContext(generate=generate, resolve_model=resolve),
    )
    return json.loads(
        json.dumps({"details": out.details, "scores": out.scores, "transcript": out.transcript})
    )


def through_jsonl(record):
    buf = io.StringIO()
    assert write_jsonl([record], buf) == 1
    return json.loads(buf.getvalue())


def test_the_log_export_of_a_mycroft_game_is_self_contained_and_round_trips():
    config = {
        "players": 2,
        "setting": "mycroft",
        "mode": "cross",
        "partners": ["builtin-iggi"],
        "regret": {"enabled": True, "rollouts": 2, "max_candidates": 4},
    }
    out = stored(config, LLM, "seed-3", ScriptedModel(garbage_every=4), resolve=lambda slug: IGGI)
    record = through_jsonl(
        game_log(out["details"], out["scores"], key="seed-3", transcript=out["transcript"])
    )
    assert verify_export(record) == []
    assert len(record["deck"]) == 50 and record["scores"]["hle_score"] == out["scores"]["hle_score"]
    model_moves = [m for m in record["moves"] if m["seat"] in record["model_seats"]]
    bot_moves = [m for m in record["moves"] if m["seat"] not in record["model_seats"]]
    assert model_moves and bot_moves
    assert all(m["rule"] and m["observation"] for m in bot_moves)
    for m in model_moves:
        assert m["prompt_verified"] and m["prompt"][0]["role"] == "system"
        assert "Life tokens" in m["observation"]  # HLE's own observation text
        assert m["replies"] and len(m["errors"]) == len(m["replies"]) - (0 if m["fallback"] else 1)
        assert m["regret"]["regret_se"] is not None and m["regret"]["best_move"] in m["legal_moves"]
        if m["fallback"]:
            assert m["parsed_move"] is None and m["fallback_rule"]
        else:
            assert m["parsed_move"] == m["move"]
    # Mycroft: from its second turn on, the memory is its own previous turn, shown in the prompt
    assert model_moves[0]["memory"] is None
    later = [m for m in model_moves[1:] if m["memory"] is not None]
    assert later and all(m["memory"]["reply"] in m["prompt"][1]["content"] for m in later)


def test_the_rewards_export_lists_every_candidates_utility_and_round_trips():
    config = {
        "players": 2,
        "setting": None,
        "regret": {"enabled": True, "rollouts": 2, "max_candidates": 60},
    }
    out = stored(config, ModelConfig(slug="r", model="builtin/legal_random"), "seed-1")
    record = through_jsonl(game_rewards(out["details"], out["scores"], key="seed-1"))
    assert verify_export(record) == []
    analysed = [m for m in record["moves"] if "utilities" in m]
    assert len(analysed) == len(record["moves"])  # self-play: every move is the model's
    for m in analysed:
        assert m["move"] in m["utilities"] and m["best_move"] in m["utilities"]
        assert all(set(u) == {"mean", "se"} for u in m["utilities"].values())
    assert any(c.startswith("(Reveal") for m in analysed for c in m["utilities"])  # hints too


def test_a_tampered_export_is_caught_on_replay():
    out = stored({"players": 3, "setting": None}, IGGI, "seed-2")
    record = game_log(out["details"], out["scores"], key="seed-2")
    assert verify_export(record) == []
    record["scores"]["hle_score"] += 1
    assert any("hle_score" in e for e in verify_export(record))
    record["moves"] = record["moves"][:-3]
    assert any("turns" in e for e in verify_export(record))


def test_the_replay_viewer_headlines_the_hle_score_and_shows_regret_with_its_se():
    from evaluators.hanabi.replay import game_frames

    config = {
        "players": 2,
        "setting": None,
        "regret": {"enabled": True, "rollouts": 2, "max_candidates": 3},
    }
    out = stored(config, ModelConfig(slug="f", model="builtin/flawed"), "seed-0")
    assert out["scores"]["bomb"]
    frames = game_frames(out["details"])["frames"]
    assert frames[-1]["score"] == 0 == out["scores"]["hle_score"]
    assert frames[-1]["fireworks_total"] == out["scores"]["fireworks_score"]
    moves = [fr["move"] for fr in frames[:-1]]
    assert all(m["regret_se"] is not None for m in moves)
