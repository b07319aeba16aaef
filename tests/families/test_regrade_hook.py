"""Re-grading is a family hook: the platform's run_regrade calls FamilySpec.regrade; a family
without one says so; HiPhO's hook keeps a stored step-level grade only when its judge did not
fail, and recombines P by the family's one rule."""

from __future__ import annotations

import pytest

from evaluators.base import EvalContext, ItemKey, ModelConfig
from evaluators.hipho.evaluator import EVALUATOR, regrade_outcome
from jobs.regrade import run_regrade
from tests.leaderboard import factories

DEMO = {"source": "dir", "path": "data/hipho_demo", "exam": "podiumdemo-2025"}


def _stored_reply() -> tuple[str, dict]:
    config = EVALUATOR.validate_config(DEMO)
    key = EVALUATOR.items(config, samples=1)[0]
    out = EVALUATOR.evaluate(
        config=config,
        model=ModelConfig(slug="ref", model="builtin/reference"),
        item=ItemKey(key.key),
        ctx=EvalContext(generate=None),
    )  # type: ignore[arg-type]
    return key.key, out.details


def test_hipho_keeps_a_stored_step_grade_without_a_judge_and_recombines_p():
    key, details = _stored_reply()
    fresh = regrade_outcome(config=DEMO, key=key, details=details)
    kept = regrade_outcome(
        config=DEMO,
        key=key,
        details=details,
        previous_scores={"A": 0.0, "S": 1e6, "best_scheme": 1, "judge_failed": False},
    )
    assert kept.scores["S"] == 1e6 and kept.scores["best_scheme"] == 1
    assert kept.score == kept.scores["P"] == max(fresh.scores["A"], 1e6)


def test_hipho_drops_a_step_grade_whose_judge_failed():
    key, details = _stored_reply()
    fresh = regrade_outcome(config=DEMO, key=key, details=details)
    dropped = regrade_outcome(
        config=DEMO,
        key=key,
        details=details,
        previous_scores={"A": 0.0, "S": 1e6, "judge_failed": True},
    )
    assert dropped.scores["S"] is None and dropped.score == fresh.score


@pytest.mark.django_db
def test_a_family_without_a_regrade_hook_is_refused():
    bench = factories.benchmark("nim/x", "nim", config={})
    run = factories.run(
        factories.model(), bench, {"score": 50.0, "score_se": 1.0, "n_items": 1, "n_failed": 0}
    )
    with pytest.raises(ValueError, match="Nim has no re-grading"):
        run_regrade(run=run)
