"""Answer-level grading: the last N boxed answers of a reply against the N reference answers.

A pair matches by the first rule that succeeds, in this order (the published HiPhO method,
made strict by issue 11):

0. both answers are split at ``=`` under the left-hand-side rule (rubrics.lhs): a bare quantity
   name on the left is dropped; names that differ forbid the value rules below; an equation
   whose left side is not a bare name is only compared as an equation
1. ``string``   normalised string equality (units, ``\\left``/``\\right``, spacing)
2. ``numeric``  relative tolerance 2e-3 (x1.01); scientific notation by mantissa and exponent;
               intervals in the reference accept any number inside them
3. ``symbolic`` sympy: numerical identity at random points, decimal coefficients at the 2e-3
               tolerance; equations by proportional differences
   ``inequality`` inequalities symbolically, keeping the direction (rubrics.inequality)
4. ``choice``   multiple-choice letters (as a set) and true/false
5. ``after_equals:<rule>``  rules 1-3 on the last part of a chain ``v = X = 4.4``
6. ``judge``    an optional LLM judge that must answer with a single verdict token

No rule folds case (``M`` and ``m`` are different quantities) and no rule depends on a
wall-clock timeout: verdicts are deterministic.

The rule that decided each answer is recorded; a failed answer records ``no_match`` (or the
judge's refusal), a missing box ``missing``, and an open-ended reference ("") ``open_ended``
(those are left to step-level grading).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rubrics import vlmevalkit
from rubrics.boxed import boxed_contents, last_boxed, reference_content
from rubrics.exam import Problem
from rubrics.inequality import inequalities_equivalent, is_inequality
from rubrics.lhs import names_conflict, split_form
from rubrics.normalize import basic, normalize, unwrap_text
from rubrics.numbers import numeric_match
from rubrics.symbolic import equations_equivalent, expressions_equivalent

GRADER_VERSION = "hipho-answer-2"
GraderProfile = Literal["strict", "vlmevalkit"]
GRADER_PROFILES: tuple[GraderProfile, ...] = ("strict", "vlmevalkit")

# (given, reference, question) -> True/False, or None when the judge's reply was unusable
AnswerJudge = Callable[[str, str, str], bool | None]

VERDICT_TOKENS = {"CORRECT": True, "INCORRECT": False}


@dataclass(frozen=True)
class AnswerVerdict:
    index: int
    reference: str
    given: str | None
    correct: bool
    rule: str
    points: float

    @property
    def awarded(self) -> float:
        return self.points if self.correct else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "reference": self.reference,
            "given": self.given,
            "correct": self.correct,
            "rule": self.rule,
            "points": self.points,
            "awarded": self.awarded,
        }


@dataclass(frozen=True)
class AnswerGrade:
    verdicts: tuple[AnswerVerdict, ...]
    full: float
    boxed_found: int

    @property
    def score(self) -> float:
        return round(sum(v.awarded for v in self.verdicts), 9)


_CHOICE = re.compile(r"^\(?([A-J])\)?[.:]?$")
_TRUE = {"true", "t", "yes", "correct", "right"}
_FALSE = {"false", "f", "no", "incorrect", "wrong"}


def _choice_letters(text: str, *, strict: bool) -> frozenset[str] | None:
    s = unwrap_text(basic(text)).replace("{", "").replace("}", "").strip()
    s = re.sub(r"^(?:option|choice|answer)\s*:?\s*", "", s, flags=re.IGNORECASE)
    parts = [p.strip() for p in re.split(r"\s*(?:,|\band\b|&|\s)\s*", s) if p.strip()]
    letters = []
    for p in parts:
        m = _CHOICE.match(p)
        if not m:
            break
        letters.append(m.group(1))
    else:
        if letters:
            return frozenset(letters)
    if strict:
        return None
    m = re.match(r"^\(?([A-J])\)(?:\s|$)", s) or re.match(r"^([A-J])(?:\s*[.:)]\s+|\s+-\s+)", s)
    return frozenset(m.group(1)) if m else None


def _truth(text: str) -> bool | None:
    s = unwrap_text(basic(text)).strip().strip("{}.").lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    return None


def choice_match(given: str, reference: str) -> bool | None:
    ref_letters = _choice_letters(reference, strict=True)
    if ref_letters is not None:
        got = _choice_letters(given, strict=False)
        return None if got is None else got == ref_letters
    ref_truth = _truth(reference)
    if ref_truth is not None:
        got_truth = _truth(given)
        return None if got_truth is None else got_truth == ref_truth
    return None


def _value_rules(given: str, reference: str, unit: str | None, *, by_value: bool) -> str | None:
    """The name of the first rule (string, numeric, symbolic) that matches two values, or None.
    ``by_value`` False: the names on the left differ, so only the symbolic rule may speak, and
    only about whole equations (the caller's business), never about values."""
    if not by_value:
        return None
    if normalize(given, unit) == normalize(reference, unit) and normalize(reference, unit):
        return "string"
    numeric = numeric_match(given, reference, unit)
    if numeric:
        return "numeric"
    # two numbers (or intervals) that the tolerance rule rejected stay rejected: symbolic
    # rounding would otherwise call 6e-21 and 7e-22 equal
    if (
        numeric is None
        and "=" not in given + reference
        and expressions_equivalent(given, reference)
    ):
        return "symbolic"
    return None


def _strict_rules(given: str, reference: str, unit: str | None) -> str | None:
    """The strict cascade (this project's grader). Both answers are first split at ``=`` (never
    a case-folding fallback, defect 1) under the left-hand-side rule (defect 2, rubrics.lhs);
    inequalities are compared as inequalities (defect 4)."""
    if is_inequality(given) or is_inequality(reference):
        if normalize(given, unit) == normalize(reference, unit) and normalize(reference, unit):
            return "string"
        return "inequality" if inequalities_equivalent(given, reference) else None
    g, r = split_form(given), split_form(reference)
    by_value = not names_conflict(g, r)
    # the whole texts first (a bare name on either side dropped), then a chain's last part
    g_final = g.final
    if g_final is not None:
        for k, r_body in enumerate(r.bodies):
            tail = g.chain or k > 0
            rule = _value_rules(g_final, r_body, unit, by_value=by_value)
            if rule:
                return f"after_equals:{rule}" if tail else rule
    same_name = g.name is not None and g.name == r.name  # the values above were authoritative
    if g.sides and r.sides and not same_name:  # rearranged equations (never by value alone)
        if normalize(g.text, unit) == normalize(r.text, unit):
            return "string"
        if equations_equivalent(g.sides, r.sides):
            return "symbolic"
    if choice_match(given, reference):
        return "choice"
    return None


def check_answer(
    given: str,
    reference: str,
    *,
    unit: str | None = None,
    question: str = "",
    judge: AnswerJudge | None = None,
) -> tuple[bool, str]:
    """Grade one boxed answer against one reference content; return (correct, rule)."""
    rule = _strict_rules(given, reference, unit)
    if rule:
        return True, rule
    if judge is not None:
        verdict = judge(given, reference, question)
        if verdict is None:
            return False, "judge_unparseable"
        return verdict, "judge"
    return False, "no_match"


def parse_verdict(reply: str) -> bool | None:
    """A judge reply must be exactly one verdict token (boxed or bare, any case)."""
    text = reply.strip()
    boxed = re.fullmatch(r"\\boxed\{\s*([A-Za-z]+)\s*\}", text)
    token = (boxed.group(1) if boxed else text).strip().strip(".*`'\"").upper()
    return VERDICT_TOKENS.get(token)


def grade_answers(
    reply: str,
    problem: Problem,
    *,
    judge: AnswerJudge | None = None,
    profile: GraderProfile = "strict",
) -> AnswerGrade:
    """A = sum(points_i x correct_i) over the problem's reference answers.

    ``strict``: fewer boxes than answers are the first answers (the rest are ``missing``).
    ``vlmevalkit``: the official cascade (rubrics.vlmevalkit), whose fewer boxes are the
    LAST answers; the judge, if any, is the lenient one."""
    if profile not in GRADER_PROFILES:
        raise ValueError(f"unknown grader profile {profile!r}; expected one of {GRADER_PROFILES}")
    n = len(problem.answers)
    if profile == "vlmevalkit":
        return _grade_official(reply, problem, judge)
    given = last_boxed(reply, n)
    verdicts: list[AnswerVerdict] = []
    for i, (answer, points) in enumerate(zip(problem.answers, problem.points)):
        ref = reference_content(answer) if answer.strip() else ""
        g = given[i] if i < len(given) else None
        if not ref:
            verdicts.append(AnswerVerdict(i, ref, g, False, "open_ended", points))
            continue
        if g is None or not g.strip():
            verdicts.append(AnswerVerdict(i, ref, g, False, "missing", points))
            continue
        correct, rule = check_answer(
            g, ref, unit=problem.units[i], question=problem.question, judge=judge
        )
        verdicts.append(AnswerVerdict(i, ref, g, correct, rule, points))
    return AnswerGrade(tuple(verdicts), problem.full_marks, len(given))


def _grade_official(reply: str, problem: Problem, judge: AnswerJudge | None) -> AnswerGrade:
    boxes = boxed_contents(reply)
    aligned = vlmevalkit.align_boxes(boxes, len(problem.answers))
    verdicts: list[AnswerVerdict] = []
    for i, (answer, points) in enumerate(zip(problem.answers, problem.points)):
        ref = reference_content(answer) if answer.strip() else ""
        g = aligned[i]
        if not ref:
            verdicts.append(AnswerVerdict(i, ref, g or None, False, "open_ended", points))
            continue
        if not boxes or not g:
            # no box at all scores the problem 0; a padded slot is graded as "" and fails
            verdicts.append(AnswerVerdict(i, ref, g or None, False, "missing", points))
            continue
        correct, rule = vlmevalkit.grade(g, ref, question=problem.question, judge=judge)
        verdicts.append(AnswerVerdict(i, ref, g, correct, f"vlmevalkit:{rule}", points))
    return AnswerGrade(tuple(verdicts), problem.full_marks, min(len(boxes), len(problem.answers)))


def reference_reply(problem: Problem) -> str:
    """A reply that states exactly the reference answers, one box each: the grader sanity
    check (the ``builtin/reference`` baseline)."""
    lines = [
        f"Answer {i + 1}: \\boxed{{{reference_content(a)}}}" for i, a in enumerate(problem.answers)
    ]
    return "\n\n".join(lines)
