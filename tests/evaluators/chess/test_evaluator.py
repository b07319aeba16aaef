"""The chess family evaluator with a fake model at the generate boundary and real Stockfish.
(The Celery + HTTP path is tested in tests/chess_positions.)"""

from __future__ import annotations

import re

import chess
import pytest

from evaluators.base import (
    Completion,
    ConfigError,
    EvalContext,
    ItemKey,
    ModelConfig,
    StoredOutcome,
)
from evaluators.chess import BUILTINS, DEFAULT_BENCHMARKS, EVALUATOR
from games.chess.positions import load_position_set
from tests.games.chess.conftest import PUZZLE_SAMPLE
from tests.requirements import require

DEMO = "data/chess_demo/positions.json"
LLM = ModelConfig(slug="llm", model="openai/fake-chess")


class FakeModel:
    """Replies from a list (in order), or from ``rule(board, messages)`` once the list is used up."""

    def __init__(self, *replies, rule=None):
        self.replies = list(replies)
        self.rule = rule
        self.calls: list[list[dict]] = []

    def __call__(self, messages, *, model, sample_index=0, purpose="model", params=None):
        self.calls.append(list(messages))
        if self.replies:
            text = self.replies.pop(0)
        else:
            fen = re.search(r"Position \(FEN\): (.+)", messages[1]["content"]).group(1)
            text = self.rule(chess.Board(fen), messages)
        return Completion(text=text, request_hash=str(len(self.calls)), model=model.model)


def stored(item, outcome):
    return StoredOutcome(
        item.key, item.sample_index, "done", outcome.score, outcome.scores, outcome.details
    )


def demo():
    return load_position_set(EVALUATOR.validate_config({"task": "best_move"})["positions"] and DEMO)


def test_defaults_validate_and_builtins_are_named():
    assert {"random", "stockfish", "stockfish-elo-1350"} <= set(BUILTINS)
    for b in DEFAULT_BENCHMARKS:
        if "shared:" in str(b["config"]) and not PUZZLE_SAMPLE.is_file():
            continue
        c = EVALUATOR.validate_config(b["config"])
        assert EVALUATOR.items(c, samples=1)
        assert EVALUATOR.spec(c)["prompt_template_hash"]


@pytest.mark.parametrize(
    "config,message",
    [
        ({"task": "chess960"}, "task: must be one of"),
        ({"task": "best_move", "positions": "data/none.json"}, "positions: file not found"),
        ({"task": "best_move", "rethinks": 9}, r"rethinks: must be an integer in \[0, 3\]"),
        (
            {"task": "best_move", "engine": {"nodes": -1}},
            "engine: search limit nodes must be positive",
        ),
        ({"task": "best_move", "colour": "red"}, r"unknown field\(s\) \['colour'\]"),
        (
            {"task": "games", "opponents": [{"player": "deep-blue"}]},
            r"opponents\[0\].player: unknown builtin",
        ),
        ({"task": "games"}, "opponents: a non-empty list"),
        ({"task": "puzzles", "puzzles": {}}, "puzzles.csv: the path"),
    ],
)
def test_bad_configs_name_the_field(config, message):
    with pytest.raises(ConfigError, match=message):
        EVALUATOR.validate_config(config)


def test_a_bad_position_file_is_named(tmp_path):
    bad = tmp_path / "set.json"
    bad.write_text(
        '{"format": "podium-chess-positions/1", "positions": [{"id": "p1", "fen": "8/8/9 w"}]}'
    )
    with pytest.raises(
        ConfigError, match=r"set.json positions\[0\] \(position p1\): field fen is not a valid FEN"
    ):
        EVALUATOR.validate_config({"task": "best_move", "positions": str(bad)})


def test_rethinks_legality_and_parse_failures_on_best_move():
    c = EVALUATOR.validate_config({"task": "best_move"})
    ps = load_position_set(DEMO)
    p0, p1 = ps.positions[0], ps.positions[1]
    b0 = chess.Board(p0.fen)
    best_san = b0.san(chess.Move.from_uci(p0.best_move))
    some_piece = next(
        sq for sq in chess.SQUARES if b0.piece_at(sq) and b0.piece_at(sq).piece_type == chess.KNIGHT
    )
    true_claim = f"the knight on {chess.square_name(some_piece)}"
    fake = FakeModel(
        f"Looking at {true_claim} and the queen on h9. Final answer: Ke9",  # unparseable target square
        f"Then {true_claim}; the bishop on a1 is idle. Final answer: Kxh8",  # illegal
        f"Final answer: {best_san}",
    )
    ctx = EvalContext(generate=fake)
    out0 = EVALUATOR.evaluate(config=c, model=LLM, item=ItemKey(p0.id), ctx=ctx)
    [rec] = out0.details["moves"]
    assert out0.score == 100.0 and rec["move"] == p0.best_move
    assert (
        rec["legal_first_try"],
        rec["legal_final"],
        rec["parse_failures"],
        rec["illegal_attempts"],
    ) == (False, True, 1, 1)
    assert rec["attempts"] == 3 and len(fake.calls) == 3
    # the rethink shows the error and keeps the conversation
    assert (
        "Kxh8" in fake.calls[2][-1]["content"]
        and "not a legal move" in fake.calls[2][-1]["content"]
    )
    assert fake.calls[2][-2]["role"] == "assistant"
    assert rec["analysis"]["move_class"] == "best" and rec["analysis"]["percentile"] is not None
    # claims: the knight (true, counted once), "bishop on a1" (false unless a bishop stands there)
    bishop_a1 = (
        b0.piece_at(chess.A1) is not None and b0.piece_at(chess.A1).piece_type == chess.BISHOP
    )
    assert rec["claims_total"] == 2 and rec["claims_false"] == (0 if bishop_a1 else 1)

    fake2 = FakeModel("no idea", "Final answer: ???", "Final answer:", "I resign")
    out1 = EVALUATOR.evaluate(
        config=c, model=LLM, item=ItemKey(p1.id), ctx=EvalContext(generate=fake2)
    )
    [rec1] = out1.details["moves"]
    assert out1.score == 0.0 and rec1["move"] is None and rec1["analysis"] is None
    assert (
        rec1["legal_first_try"],
        rec1["legal_final"],
        rec1["parse_failures"],
        rec1["illegal_attempts"],
    ) == (False, False, 4, 0)
    assert len(fake2.calls) == 4  # one try and three rethinks

    m = EVALUATOR.aggregate(
        config=c, outcomes=[stored(ItemKey(p0.id), out0), stored(ItemKey(p1.id), out1)]
    )
    assert (
        m["task"] == "best_move"
        and m["score"] == 50.0
        and m["score_se"] == pytest.approx(100 * (0.25 / 2) ** 0.5)
    )
    assert m["legal_first_try"] == 0.0 and m["legal_final"] == 0.5
    assert m["parse_failures"] == 5 and m["illegal_attempts"] == 1
    # the move that never became legal is its own bucket, outside accuracy and ACPL, and the
    # second accuracy counts it as 0
    assert m["move_classes"]["best"] == 1 and m["move_classes"]["never_legal"] == 1
    assert sum(m["move_classes"].values()) == 2 and m["never_legal"] == 1
    assert m["accuracy"] == 100.0 and m["accuracy_never_legal_as_zero"] == 50.0 and m["acpl"] == 0
    assert m["accuracy"] == 100.0 and m["acpl"] == 0
    assert m["hallucination_rate"] == (0.0 if bishop_a1 else 0.5)
    assert m["n_items"] == 2 and m["n_failed"] == 0


def test_multiple_choice_and_a_non_candidate_answer():
    c = EVALUATOR.validate_config({"task": "mc_best"})
    pos = next(p for p in load_position_set(DEMO).positions if p.mc_best)
    board = chess.Board(pos.fen)
    outside = next(m for m in board.legal_moves if m.uci() not in pos.mc_best.candidates)
    fake = FakeModel(f"Final answer: {board.san(outside)}", f"Final answer: {pos.mc_best.answer}")
    out = EVALUATOR.evaluate(
        config=c, model=LLM, item=ItemKey(pos.id), ctx=EvalContext(generate=fake)
    )
    [rec] = out.details["moves"]
    assert out.score == 100.0 and rec["illegal_attempts"] == 1 and rec["legal_final"]
    assert "not one of the candidates" in fake.calls[1][-1]["content"]
    for cand in pos.mc_best.candidates:
        assert board.san(chess.Move.from_uci(cand)) in fake.calls[0][-1]["content"]


def test_legal_moves_scored_by_iou():
    c = EVALUATOR.validate_config({"task": "legal_moves"})
    pos = load_position_set(DEMO).positions[0]
    board = chess.Board(pos.fen)
    sq = chess.parse_square(pos.piece_square)
    truth = sorted(m.uci() for m in board.legal_moves if m.from_square == sq)
    half = truth[: max(1, len(truth) // 2)]
    fake = FakeModel("Final answer: " + ", ".join(half))
    out = EVALUATOR.evaluate(
        config=c, model=LLM, item=ItemKey(pos.id), ctx=EvalContext(generate=fake)
    )
    assert out.scores["iou"] == pytest.approx(len(half) / len(truth))
    assert pos.piece_square in fake.calls[0][-1]["content"]


def test_builtins_on_the_demo_set():
    c = EVALUATOR.validate_config({"task": "best_move"})
    items = EVALUATOR.items(c, samples=1)[:10]
    never = EvalContext(generate=lambda *a, **k: pytest.fail("a builtin called the model"))
    scores = {}
    for name in ("stockfish", "random"):
        model = ModelConfig(slug=name, model=f"builtin/{name}")
        outs = [
            stored(i, EVALUATOR.evaluate(config=c, model=model, item=i, ctx=never)) for i in items
        ]
        scores[name] = EVALUATOR.aggregate(config=c, outcomes=outs)
    assert scores["stockfish"]["score"] == 100.0 and scores["stockfish"]["acpl"] == 0
    assert scores["random"]["score"] < 50 and scores["random"]["acpl"] > 50


def test_puzzles_with_a_model_that_knows_the_answers(puzzle_rows=6):
    require(PUZZLE_SAMPLE.is_file(), f"the shared puzzle sample at {PUZZLE_SAMPLE}")
    c = EVALUATOR.validate_config(
        {"task": "puzzles", "puzzles": {"csv": str(PUZZLE_SAMPLE), "limit": puzzle_rows}}
    )
    from evaluators.chess.config import puzzles

    answers = {}
    for p in puzzles(c):
        b = p.start_board()
        for k, uci in enumerate(p.moves[1:], start=1):
            if k % 2 == 1:
                answers[b.fen()] = uci
            b.push_uci(uci)
    fake = FakeModel(rule=lambda board, msgs: f"Final answer: {answers[board.fen()]}")
    outs = []
    for item in EVALUATOR.items(c, samples=1):
        outs.append(
            stored(
                item,
                EVALUATOR.evaluate(config=c, model=LLM, item=item, ctx=EvalContext(generate=fake)),
            )
        )
    m = EVALUATOR.aggregate(config=c, outcomes=outs)
    assert m["score"] == 100.0 and m["legal_first_try"] == 1.0
    assert sum(b["n"] for b in m["puzzle_accuracy_by_band"].values()) == puzzle_rows
    assert "Moves so far:" in fake.calls[0][-1]["content"]  # the opponent's set-up move is shown


def first_legal(board, messages):
    return "Final answer: " + min(m.uci() for m in board.legal_moves)


class Crash(Exception):
    pass


def test_a_game_checkpoints_every_move_and_resumes_without_replaying():
    c = EVALUATOR.validate_config(
        {"task": "games", "opponents": ["random"], "games_per_opponent": 1, "max_moves": 4}
    )
    [item] = EVALUATOR.items(c, samples=1)
    saved = []

    def checkpoint(state):
        saved.append(state)
        if len(saved) == 3:
            raise Crash("worker died")

    fake = FakeModel(rule=first_legal)
    with pytest.raises(Crash):
        EVALUATOR.evaluate(
            config=c, model=LLM, item=item, ctx=EvalContext(generate=fake, checkpoint=checkpoint)
        )
    assert [len(s["moves"]) for s in saved] == [1, 2, 3]
    calls_before = len(fake.calls)
    assert calls_before == 2  # the model is White: plies 1 and 3
    resumed = EvalContext(generate=fake, resume=saved[-1])
    out = EVALUATOR.evaluate(config=c, model=LLM, item=item, ctx=resumed)
    assert len(fake.calls) == calls_before + 2  # plies 5 and 7; ply 3 is not asked again
    d = out.details
    assert d["game_moves"][:3] == saved[-1]["moves"] and d["resumed_at_ply"] == 3
    assert (d["result"], d["reason"], d["plies"], out.score) == ("1/2-1/2", "move_limit", 8, 0.5)
    assert [r["ply"] for r in d["moves"]] == [1, 3, 5, 7]
    assert all(r["analysis"] is not None for r in d["moves"]) and d["game_accuracy"] is not None
    assert d["pgn"].startswith("[Event")


def test_an_illegal_move_after_the_rethinks_loses_the_game():
    c = EVALUATOR.validate_config(
        {"task": "games", "opponents": ["stockfish-elo-1350"], "games_per_opponent": 1}
    )
    [item] = EVALUATOR.items(c, samples=1)
    fake = FakeModel(rule=lambda board, msgs: "Final answer: Ke5")
    out = EVALUATOR.evaluate(config=c, model=LLM, item=item, ctx=EvalContext(generate=fake))
    assert (
        out.details["result"] == "0-1"
        and out.details["reason"] == "illegal_move"
        and out.score == 0.0
    )
    assert len(fake.calls) == 4
    m = EVALUATOR.aggregate(config=c, outcomes=[stored(item, out)])
    assert (m["wins"], m["draws"], m["losses"]) == (0, 0, 1)
    # one game lost: only an upper bound is known; the point shown is where a loss has
    # probability one half, i.e. the opponent's measured rating (from the ladder, not 1350)
    [pairing] = m["pairings"]
    assert pairing["opponent"] == "stockfish-elo-1350" and pairing["losses"] == 1
    assert m["elo_censored"] == "below" and m["elo_ci95"][0] is None and m["elo_ci95"][1] > m["elo"]
    assert (
        m["elo"] == pytest.approx(pairing["rating"], abs=3)
        and m["score"] == m["elo"]
        and m["score_se"] is None
    )


def test_model_against_model_records_both_sides():
    c = EVALUATOR.validate_config(
        {
            "task": "games",
            "opponents": [{"model": "other", "elo": 1500}],
            "games_per_opponent": 2,
            "max_moves": 2,
        }
    )
    items = EVALUATOR.items(c, samples=1)
    assert [i.key for i in items] == ["other#000", "other#001"]
    other = ModelConfig(slug="other", model="openai/other")
    fake = FakeModel(rule=first_legal)
    ctx = EvalContext(generate=fake, resolve_model=lambda slug: other)
    out = EVALUATOR.evaluate(
        config=c, model=LLM, item=items[1], ctx=ctx
    )  # odd index: the model is Black
    d = out.details
    assert d["model_color"] == "black" and d["plies"] == 4 and len(fake.calls) == 4
    assert [r["ply"] for r in d["moves"]] == [2, 4] and [r["ply"] for r in d["opponent_moves"]] == [
        1,
        3,
    ]
    assert d["opponent_elo"] == 1500 and out.score == 0.5
    m = EVALUATOR.aggregate(config=c, outcomes=[stored(items[1], out)])
    assert m["elo"] == pytest.approx(1500) and m["draws"] == 1


def test_the_position_is_searched_while_the_model_thinks(monkeypatch):
    """best_move starts the position's best-move search before asking the model: the model's
    reply finds it in the analysis cache, and the move is scored exactly as without it."""
    import os
    import time

    from evaluators.chess import config as cfg
    from evaluators.chess import runtime
    from games.chess.analysis import Analyzer
    from games.chess.cache import MemoryAnalysisCache, analysis_key

    monkeypatch.setattr(runtime, "_cache", MemoryAnalysisCache())
    monkeypatch.setattr(runtime, "_cache_pid", os.getpid())
    c = EVALUATOR.validate_config({"task": "best_move"})
    p = load_position_set(DEMO).positions[3]
    board = chess.Board(p.fen)
    engine = runtime.analyzer(cfg.search_limit(c))
    key = analysis_key(board.fen(), engine.engine.id, engine.limit.key(), None)
    seen = []

    def think(b, messages):
        deadline = time.monotonic() + 30
        while runtime.analysis_cache().get(key) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.append(runtime.analysis_cache().get(key) is not None)
        return f"Final answer: {min(b.legal_moves, key=lambda m: m.uci()).uci()}"

    out = EVALUATOR.evaluate(
        config=c, model=LLM, item=ItemKey(p.id), ctx=EvalContext(generate=FakeModel(rule=think))
    )
    assert seen == [True]
    played = min(board.legal_moves, key=lambda m: m.uci())
    fresh = Analyzer(engine.engine, MemoryAnalysisCache(), engine.limit)
    scored = dict(out.details["moves"][0]["analysis"])
    expected = fresh.score_move(board, played).to_dict()
    for d in (scored, expected):  # from the set's stored move values, not this test's subject
        d.pop("percentile")
    assert scored == expected
