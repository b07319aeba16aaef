"""The grader profile is a benchmark setting, frozen into the run spec and used by the worker:
``strict`` (default) or ``vlmevalkit`` (the official cascade, its box alignment and its
lenient answer judge)."""

from __future__ import annotations

import pytest

from evaluators.base import ConfigError, EvalContext, ItemKey
from evaluators.hipho import EVALUATOR
from tests.evaluators.hipho.test_evaluator import DEMO, JUDGE, TEXT_MODEL, FakeModel

OFFICIAL = {**DEMO, "grader_profile": "vlmevalkit"}


def test_the_spec_records_the_profile_and_strict_is_the_default():
    assert EVALUATOR.spec(DEMO)["grader_profile"] == "strict"
    assert EVALUATOR.spec(OFFICIAL)["grader_profile"] == "vlmevalkit"
    with pytest.raises(ConfigError, match="grader_profile"):
        EVALUATOR.validate_config({**DEMO, "grader_profile": "lenient"})


def test_each_profile_grades_the_same_reply_by_its_own_rules():
    # one box for a two-answer problem: strict grades it as answer 1, the official cascade as
    # answer 2 (fewer boxes align with the last references)
    fake = FakeModel({"[Cliff throw]": "so the distance is \\boxed{30.3}"})
    item = ItemKey("PodiumDemo_2025_1", 0)
    strict = EVALUATOR.evaluate(
        config=DEMO, model=TEXT_MODEL, item=item, ctx=EvalContext(generate=fake)
    )
    official = EVALUATOR.evaluate(
        config=OFFICIAL, model=TEXT_MODEL, item=item, ctx=EvalContext(generate=fake)
    )
    assert [a["correct"] for a in strict.details["answers"]] == [False, False]
    assert [a["correct"] for a in official.details["answers"]] == [False, True]
    assert (
        official.details["grader_profile"] == "vlmevalkit"
        and strict.details["grader_profile"] == "strict"
    )


def test_the_official_profile_asks_the_lenient_judge():
    prompts = []

    def judge(prompt):
        prompts.append(prompt)
        return "[Correct]" if "Correct answer:" in prompt else "\\boxed{0}"

    fake = FakeModel({"[Cliff throw]": "\\boxed{about two seconds} \\boxed{30.3}"}, judge=judge)
    out = EVALUATOR.evaluate(
        config=OFFICIAL,
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_1", 0),
        ctx=EvalContext(generate=fake, judge=JUDGE),
    )
    asked = [p for p in prompts if "Correct answer:" in p]
    assert asked and "Reply with exactly [Correct] or [Incorrect]" in asked[0]
    assert out.details["answers"][0]["rule"] == "vlmevalkit:xverify"
