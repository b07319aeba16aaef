"""Answer-level grading: the last N boxed answers of a reply against the N reference answers.

A pair matches by the first rule that succeeds, in this order (the published HiPhO method):

1. ``string``   normalised string equality (units, ``\\left``/``\\right``, a leading ``x =`` stripped)
2. ``numeric``  relative tolerance 2e-3 (x1.01); scientific notation by mantissa and exponent;
               intervals in the reference accept any number inside them
3. ``symbolic`` sympy (numerical identity at random points) / math-verify
4. ``choice``   multiple-choice letters (as a set) and true/false
5. ``after_equals:<rule>``  rules 1-4 again on the text after the last ``=``
6. ``judge``    an optional LLM judge that must answer with a single verdict token

The rule that decided each answer is recorded; a failed answer records ``no_match`` (or the
judge's refusal), a missing box ``missing``, and an open-ended reference ("") ``open_ended``
(those are left to step-level grading).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rubrics.boxed import last_boxed, reference_content
from rubrics.exam import Problem
from rubrics.normalize import basic, is_name, normalize, strip_qualifier, unwrap_text
from rubrics.numbers import numeric_match
from rubrics.symbolic import symbolic_match

GRADER_VERSION = "hipho-answer-1"

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
        return {"index": self.index, "reference": self.reference, "given": self.given,
                "correct": self.correct, "rule": self.rule, "points": self.points,
                "awarded": self.awarded}


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


def _after_equals(text: str) -> str | None:
    """The text after the last ``=`` when the text names a quantity first (``v = ... = 4.4``);
    the text itself when it has no ``=``; None for an equation such as ``m \\ddot z + kz = 0``,
    whose right-hand side alone means nothing."""
    s = strip_qualifier(basic(text)).replace("\\approx", "=")
    if "=" not in s:
        return s
    if not is_name(s.split("=", 1)[0]):
        return None
    return s.rsplit("=", 1)[1].strip()


def _rules(given: str, reference: str, unit: str | None) -> str | None:
    """The name of the first rule (1-4) that matches, or None. Only a positive verdict stops
    the chain: a rule that cannot decide (or says no) passes to the next one."""
    if normalize(given, unit) == normalize(reference, unit) and normalize(reference, unit):
        return "string"
    numeric = numeric_match(given, reference, unit)
    if numeric:
        return "numeric"
    # two numbers (or intervals) that the tolerance rule rejected stay rejected: symbolic
    # rounding would otherwise call 6e-21 and 7e-22 equal
    if numeric is None and symbolic_match(given, reference):
        return "symbolic"
    if choice_match(given, reference):
        return "choice"
    return None


def check_answer(
    given: str, reference: str, *, unit: str | None = None, question: str = "",
    judge: AnswerJudge | None = None,
) -> tuple[bool, str]:
    """Grade one boxed answer against one reference content; return (correct, rule)."""
    rule = _rules(given, reference, unit)
    if rule:
        return True, rule
    g_tail, r_tail = _after_equals(given), _after_equals(reference)
    changed = (g_tail, r_tail) != (strip_qualifier(basic(given)), strip_qualifier(basic(reference)))
    if changed and g_tail and r_tail:
        rule = _rules(g_tail, r_tail, unit)
        if rule:
            return True, f"after_equals:{rule}"
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


def grade_answers(reply: str, problem: Problem, *, judge: AnswerJudge | None = None) -> AnswerGrade:
    """A = sum(points_i x correct_i) over the problem's reference answers."""
    n = len(problem.answers)
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


def reference_reply(problem: Problem) -> str:
    """A reply that states exactly the reference answers, one box each: the grader sanity
    check (the ``builtin/reference`` baseline)."""
    lines = [f"Answer {i + 1}: \\boxed{{{reference_content(a)}}}"
             for i, a in enumerate(problem.answers)]
    return "\n\n".join(lines)
