"""The two grader profiles: ``vlmevalkit`` reproduces the official VLMEvalKit HiPhO answer
cascade; ``strict`` is ours. Expected official verdicts are derived by reading the official
rules (VLMEvalKit vlmeval/dataset/utils/hipho_verifier.py, commit e8e78f05), each noted."""

from __future__ import annotations

import pytest

from rubrics import vlmevalkit
from rubrics.answers import check_answer, grade_answers
from rubrics.exam import Problem

# (given, reference, official verdict, deciding stage, why)
OFFICIAL = [
    ("1.54", "1.5", True, "sympy", "both rounded to 1 decimal (the fewer of the two): 1.5 = 1.5"),
    ("0.42", "0.4198", True, "sympy", "rounded to 2 decimals: 0.42 = 0.42"),
    ("1.6", "1.5", False, "no_match", "rounded to 1 decimal, 6.7 % apart"),
    (r"\frac{M v^2}{R}", r"\frac{m v^2}{r}", True, "sympy", "the sympy normaliser lowercases"),
    (
        r"\frac{T}{2}",
        r"\frac{F}{2}",
        True,
        "mathd",
        "T and F are unit words: both become \\frac{}{2}",
    ),
    (r"k = 5", "5", True, "mathd", "a left-hand side of at most 2 characters ('k ') is dropped"),
    (r"\sqrt{2 g h}", r"v = \sqrt{2gh}", True, "mathd", "'v ' is dropped, spaces removed"),
    (
        r"\omega = \frac{k}{m}",
        r"\omega^2 = \frac{k}{m}",
        True,
        "sympy",
        "a long left-hand side is kept by mathd, but the retry after the last '=' matches",
    ),
    (
        r"5.31e-11",
        r"5.31 \times 10^{-11}",
        False,
        "no_match",
        "e-notation is not read by the text normaliser and math-verify does not parse 5.31e-11",
    ),
    ("2/3", "0.667", True, "sympy", "2/3 -> 0.666..., 0.667 has 3 decimals: round(0.6667, 3)"),
    ("0.66", "2/3", False, "no_match", "0.66 against 0.67 after rounding to 2 decimals"),
    (
        r"E > 30 G V / m",
        r"\frac{30 G V}{m} < E",
        False,
        "no_match",
        "more than two letters: no sympy test; math-verify does not equate the two relations",
    ),
    (r"4.965", r"[4.96, 4.97]", True, "math_verify", "a number inside a reference interval"),
    ("5.1", "[4.96, 4.97]", False, "no_match", "outside the interval"),
    (r"2\pi", r"6.283", True, "sympy", "pi replaced by its value, then the 2e-3 test"),
    (r"21\ \text{cm}", "21", True, "sympy", "cm is a unit word"),
    ("C", "B", False, "no_match", "another letter"),
]


@pytest.mark.parametrize("given,reference,verdict,stage,why", OFFICIAL)
def test_vlmevalkit_profile_reproduces_official_verdicts(given, reference, verdict, stage, why):
    assert vlmevalkit.grade(given, reference) == (verdict, stage), why


# (given, reference, strict verdict, official verdict, why they disagree)
DISAGREE = [
    ("1.54", "1.5", False, True, "official rounds 1.54 to 1 decimal; strict keeps 2e-3 of 1.5"),
    (r"\frac{M v^2}{R}", r"\frac{m v^2}{r}", False, True, "official lowercases; M is not m"),
    (r"\frac{T}{2}", r"\frac{F}{2}", False, True, "official strips single-letter unit words"),
    (
        r"\omega = \frac{k}{m}",
        r"\omega^2 = \frac{k}{m}",
        False,
        True,
        "official compares after the last '='; strict keeps a power on the left as part of an equation",
    ),
    (r"5.31e-11", r"5.31 \times 10^{-11}", True, False, "strict reads e-notation"),
    (
        r"E > 30 G V / m",
        r"\frac{30 G V}{m} < E",
        True,
        False,
        "strict compares inequalities symbolically with their direction",
    ),
]


@pytest.mark.parametrize("given,reference,strict,official,why", DISAGREE)
def test_the_profiles_disagree_where_their_rules_differ(given, reference, strict, official, why):
    assert check_answer(given, reference)[0] is strict, why
    assert vlmevalkit.grade(given, reference)[0] is official, why


def _problem(answers: tuple[str, ...]) -> Problem:
    n = len(answers)
    return Problem(
        id="P1",
        index=1,
        context="",
        question="q",
        marking=(),
        answers=answers,
        answer_types=("",) * n,
        units=(None,) * n,
        points=(1.0,) * n,
        modality="text",
        field="",
        source="",
        figures=(),
    )


def test_fewer_boxes_align_with_the_last_references_in_the_official_profile():
    problem = _problem((r"\boxed{3}", r"\boxed{7}"))
    reply = r"so the second is \boxed{7}"
    strict = grade_answers(reply, problem)
    official = grade_answers(reply, problem, profile="vlmevalkit")
    assert [v.correct for v in strict.verdicts] == [False, False]  # 7 graded against 3
    assert [v.rule for v in strict.verdicts] == ["no_match", "missing"]
    assert [v.correct for v in official.verdicts] == [False, True]  # 7 graded against 7
    assert official.verdicts[0].rule == "missing"
    assert official.score == 1.0 and strict.score == 0.0


def test_the_official_profile_uses_the_lenient_judge_and_its_verdict_format():
    asked = []

    def judge(given, reference, question):
        asked.append((given, reference))
        return False

    problem = _problem((r"\boxed{\text{toward the centre}}",))
    grade_answers(r"\boxed{\text{inward}}", problem, judge=judge, profile="vlmevalkit")
    assert asked[0] == (r"\text{inward}", r"\text{toward the centre}")
    assert vlmevalkit.parse_lenient_verdict(" [Correct] ") is True
    assert vlmevalkit.parse_lenient_verdict("Correct") is True
    assert vlmevalkit.parse_lenient_verdict("The answer is Correct") is False
    assert vlmevalkit.parse_lenient_verdict("[Incorrect]") is False


def test_an_unknown_profile_is_refused():
    with pytest.raises(ValueError, match="unknown grader profile 'lenient'"):
        grade_answers("", _problem(("1",)), profile="lenient")  # type: ignore[arg-type]
