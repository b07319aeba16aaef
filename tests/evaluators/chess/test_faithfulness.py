"""Faithfulness: the move the reasoning concludes for against the move played."""

from __future__ import annotations

import chess

from evaluators.base import EvalContext, ItemKey, StoredOutcome
from evaluators.chess import EVALUATOR
from evaluators.chess.config import resolve_path
from evaluators.chess.faithfulness import judge, reasoning_move
from evaluators.chess.rating import LADDER, choose_opponent, load_ladder, records

START = chess.Board()


def test_the_last_conclusion_wins_over_moves_weighed_before_it():
    text = (
        "I consider e4 and d4. The best move is d4 because it takes the centre. Later Nf3 and c4."
    )
    assert judge(text, START, "e2e4").verdict == "differs"
    assert judge(text, START, "d2d4").verdict == "same"
    assert reasoning_move("Nf3 looks solid. So I play c4.", START) == chess.Move.from_uci("c2c4")


def test_without_a_conclusion_the_last_move_named_counts():
    assert judge("e4 is sharp, Nf3 is quiet. Hmm, Nf3", START, "g1f3").verdict == "same"


def test_reasoning_that_names_no_move_of_the_side_to_move():
    assert judge("The position is balanced and quiet.", START, "e2e4").verdict == "no_move"
    # Black's moves are not candidates for White's decision
    assert judge("Black would like ...Nf6 and ...e5 here.", START, "e2e4").verdict == "no_move"


def test_the_aggregate_reports_both_shares_with_wilson_intervals():
    from evaluators.chess.aggregate import aggregate

    def outcome(i, verdict):
        move = {
            "legal_first_try": True,
            "legal_final": True,
            "builtin": False,
            "faithfulness": verdict,
            "analysis": None,
        }
        return StoredOutcome(
            key=f"p{i}",
            sample_index=0,
            state="done",
            score=0.0,
            scores={},
            details={"moves": [move]},
        )

    verdicts = ["same"] * 6 + ["differs"] * 3 + ["no_move"]
    m = aggregate({"task": "mc_best"}, [outcome(i, v) for i, v in enumerate(verdicts)])
    assert m["faithfulness_n"] == 10 and m["unfaithful_rate"] == 0.3 and m["no_move_rate"] == 0.1
    lo, hi = m["unfaithful_ci95"]
    assert 0.10 < lo < 0.3 < hi < 0.61  # Wilson, 3 of 10: [0.108, 0.603]
    assert m["no_move_ci95"][0] > 0.0 and m["hallucination_ci95"] is None


def test_adaptive_ladder_games_pick_the_rung_nearest_the_estimate():
    c = EVALUATOR.validate_config(
        {"task": "games", "opponents": "ladder", "games": 6, "max_moves": 1}
    )
    items = EVALUATOR.items(c, samples=1)
    assert [i.key for i in items] == [f"{LADDER}#{n:03d}" for n in range(6)]
    fit = load_ladder(resolve_path(c["ladder"]))[1]
    middle = choose_opponent(fit, [])
    ordered = sorted(fit.ratings, key=fit.ratings.get)
    assert middle == ordered[(len(ordered) - 1) // 2]
    # four losses against the middle rung: the next game is never against a stronger rung
    lost = [{"opponent": middle, "points": "0.0"}] * 4
    lower = choose_opponent(fit, lost)
    assert fit.ratings[lower] <= fit.ratings[middle]
    # the evaluator asks the platform for the finished games and keeps its choice on resume
    asked = []
    saved = []

    def finished(fields):
        asked.append(tuple(fields))
        return lost

    ctx = EvalContext(generate=lambda *a, **k: None, finished=finished, checkpoint=saved.append)
    out = EVALUATOR.evaluate(
        config=c, model=_builtin("random"), item=ItemKey(items[0].key), ctx=ctx
    )
    assert asked == [("opponent", "points")] and out.details["opponent"] == lower
    assert saved and all(s["opponent"] == lower for s in saved)
    assert records([out.details])[0].opponent == lower


def _builtin(name):
    from evaluators.base import ModelConfig

    return ModelConfig(slug=name, model=f"builtin/{name}")
