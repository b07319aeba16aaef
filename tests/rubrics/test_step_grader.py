"""Step-level grading: one judge call per criterion, re-grade (single scheme) and scale-down
when a scheme overshoots, several schemes graded once then scaled, the best scheme wins, the
score read the official way."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rubrics.exam import Problem
from rubrics.steps import MAX_REGRADES, Attempt, grade_steps, parse_score, parse_score_ours

PROBLEM = Problem(
    id="Demo_1",
    index=1,
    context="A ball is dropped.",
    question="Find the speed after falling h.",
    marking=(
        ("Award 0.5 pt if energy conservation is used.", "Award 0.5 pt if v = sqrt(2gh)."),
        ("Award 1.0 pt if the kinematics v^2 = 2gh is used.",),
    ),
    answers=("\\boxed{\\sqrt{2gh}}",),
    answer_types=("Expression",),
    units=(None,),
    points=(1.0,),
    modality="text-only",
    field="Mechanics",
    source="Demo",
    figures=(),
)


ONE_SCHEME = replace(PROBLEM, marking=PROBLEM.marking[:1])


def prompt(problem, reply, criterion, attempt: Attempt):
    notice = f"Attempt {attempt.number}; previous totals {attempt.previous_totals} exceeded {attempt.max_total}"
    return f"Q: {problem.question}\nReply: {reply}\n{notice}\nCriterion: {criterion}"


class ScriptedJudge:
    """A judge that replies from a script keyed by a fragment of the criterion."""

    def __init__(self, script):
        self.script = {k: list(v) for k, v in script.items()}
        self.prompts = []

    def __call__(self, text):
        self.prompts.append(text)
        criterion = text.split("Criterion:", 1)[1]
        for key, replies in self.script.items():
            if key in criterion:
                return replies.pop(0) if len(replies) > 1 else replies[0]
        raise AssertionError(f"unscripted prompt: {text}")


@pytest.mark.parametrize(
    "reply,official,ours",
    [
        ("The criterion is met. \\boxed{0.5}", 0.5, 0.5),
        ("\\boxed{0} ... on reflection \\boxed{0.25}", 0.25, 0.25),
        ("I award 0.3 points", 0.3, 0.3),
        ("score: \\boxed{\\text{0.4 pt}}", 0.4, 0.4),
        ("no number at all", 0.0, None),  # official: 0; ours: unparseable
        ("\\boxed{\\frac{1}{2}}", 1.0, 2.0),  # official reads up to the first '}'
        ("\\boxed{0.333333}", 0.33, 0.333333),  # official rounds to 2 decimals
        ("worth -0.5 at most", 0.5, -0.5),  # the official fallback reads no sign
    ],
)
def test_it_parses_the_judge_score_the_official_way_and_keeps_ours(reply, official, ours):
    assert parse_score(reply) == official
    assert parse_score_ours(reply) == ours


def test_it_calls_the_judge_once_per_criterion_and_keeps_the_best_scheme():
    judge = ScriptedJudge(
        {"energy": ["\\boxed{0.5}"], "sqrt(2gh)": ["\\boxed{0}"], "kinematics": ["\\boxed{1.0}"]}
    )
    grade = grade_steps(PROBLEM, "v = sqrt(2gh)", judge=judge, build_prompt=prompt)
    assert len(judge.prompts) == 3
    assert [s.total for s in grade.schemes] == [0.5, 1.0]
    assert grade.best_scheme == 1 and grade.score == 1.0
    first = grade.schemes[0].criteria[0]
    assert first.prompt.startswith("Q: Find the speed") and first.reply == "\\boxed{0.5}"


def test_a_single_scheme_is_regraded_with_the_attempt_and_the_overshoot_told():
    # first pass awards 0.9 + 0.9 = 1.8 > 1.0 full marks; the re-grade is sane
    judge = ScriptedJudge(
        {"energy": ["\\boxed{0.9}", "\\boxed{0.5}"], "sqrt(2gh)": ["\\boxed{0.9}", "\\boxed{0.4}"]}
    )
    grade = grade_steps(ONE_SCHEME, "reply", judge=judge, build_prompt=prompt)
    scheme = grade.schemes[0]
    assert scheme.attempts == 2 and not scheme.scaled
    assert scheme.discarded_totals == (1.8,)
    assert scheme.total == pytest.approx(0.9)
    assert "Attempt 1; previous totals () exceeded 1.0" in judge.prompts[0]
    assert "Attempt 2; previous totals (1.8,) exceeded 1.0" in judge.prompts[2]


def test_a_single_scheme_is_scaled_down_after_three_regrades():
    judge = ScriptedJudge({"energy": ["\\boxed{1.5}"], "sqrt(2gh)": ["\\boxed{0.5}"]})
    grade = grade_steps(ONE_SCHEME, "reply", judge=judge, build_prompt=prompt)
    scheme = grade.schemes[0]
    assert scheme.attempts == 1 + MAX_REGRADES
    assert len(judge.prompts) == 2 * (1 + MAX_REGRADES)
    assert scheme.scaled
    assert [c.score for c in scheme.criteria] == pytest.approx([0.75, 0.25])  # 1.5:0.5 kept
    assert grade.score == pytest.approx(1.0)


def test_several_schemes_are_graded_once_then_scaled():
    judge = ScriptedJudge(
        {"energy": ["\\boxed{1.5}"], "sqrt(2gh)": ["\\boxed{0.5}"], "kinematics": ["\\boxed{0.8}"]}
    )
    grade = grade_steps(PROBLEM, "reply", judge=judge, build_prompt=prompt)
    assert len(judge.prompts) == 3  # no re-grade
    assert grade.schemes[0].attempts == 1 and grade.schemes[0].scaled
    assert [c.score for c in grade.schemes[0].criteria] == pytest.approx([0.75, 0.25])
    assert grade.best_scheme == 0 and grade.score == pytest.approx(1.0)
    assert grade.notes == ("several schemes: each graded once, then scaled",)


def test_it_counts_negative_or_missing_scores_as_zero_and_flags_parse_differences():
    judge = ScriptedJudge({"energy": ["\\boxed{-0.5}"], "sqrt(2gh)": ["cannot tell"]})
    grade = grade_steps(ONE_SCHEME, "reply", judge=judge, build_prompt=prompt)
    criteria = grade.schemes[0].criteria
    assert [c.raw_score for c in criteria] == [-0.5, 0.0]
    assert [c.parse_differs for c in criteria] == [False, True]  # ours found no number
    assert grade.score == 0.0


def test_it_has_no_step_score_without_a_scheme():
    judge = ScriptedJudge({})
    grade = grade_steps(replace(PROBLEM, marking=()), "reply", judge=judge, build_prompt=prompt)
    assert grade.score is None and grade.best_scheme is None and judge.prompts == []
