"""The ``vlmevalkit`` grader profile: the official HiPhO answer cascade, reproduced.

Ported (definitions, not code) from VLMEvalKit, ``vlmeval/dataset/utils/hipho_verifier.py`` at
commit e8e78f05f3080fe28154f2130321f17951c3be94 (Apache-2.0, Garena Online Private Limited),
functions ``grade``, ``grade_answer_mathd`` / ``_strip_string``, ``grade_answer_sympy`` /
``sympy_normalize_answer`` / ``are_equal_under_sympy``, ``grade_answer_math_verify``,
``grade_answer_xverify`` and ``get_answer_str``. The cascade, per (boxed answer, reference):

1. ``mathd``: both strings normalised (units and unit *words* dropped, ``\\left``/``\\right``,
   a left-hand side of at most 2 characters dropped, spaces removed, ``\\frac12`` fixed) and
   compared for equality;
2. ``sympy``: both normalised again, LaTeX turned into text, *lowercased*; equal strings
   match; otherwise elementwise (tuples), numbers rounded to the smaller number of decimals of
   the two, then a relative 2e-3 (x1.01) test, then scientific notation (two-decimal
   mantissas, absolute 2e-3), then a sympy simplification for expressions of at most two
   letters; retried on the text after the last ``=`` of both;
3. ``math_verify``: math-verify's parse and verify at 3 digits; a number inside a reference
   interval; retried after the last ``=``;
4. ``xverify``: the lenient LLM answer judge (optional), retried after the last ``=``.

Where the official code depends on wall-clock alarms (30 s around the sympy test, 1-5 s around
math-verify) we run without them, because a timeout's verdict depends on machine load: the sympy
test is already limited to two letters (``should_allow_eval``), and math-verify is not run on
parsed expressions above ``MAX_VERIFY_OPS`` operations (counted as the timeout would count them). Where it calls
``eval`` on model text (``handle_pi``), we evaluate plain arithmetic with sympy instead.

This module holds the cascade; its stages are modules of their own: ``units`` (the unit
vocabulary), ``mathd``, ``sympy_match`` and ``verify`` (math-verify).
"""

from __future__ import annotations

from collections.abc import Callable

# The stages live in modules of their own; their public names are this module's, as before.
from rubrics.vlmevalkit.mathd import mathd_normalize
from rubrics.vlmevalkit.sympy_match import (
    PRECISION,
    equal_under_sympy,
    grade_sympy,
    judge_mc,
    judge_tf,
    sympy_normalize,
)
from rubrics.vlmevalkit.units import UNIT_WORDS, drop_unit_words
from rubrics.vlmevalkit.verify import MAX_VERIFY_OPS, grade_math_verify

__all__ = [
    "MAX_VERIFY_OPS",
    "PRECISION",
    "UNIT_WORDS",
    "LenientJudge",
    "align_boxes",
    "drop_unit_words",
    "equal_under_sympy",
    "grade",
    "grade_math_verify",
    "grade_sympy",
    "judge_mc",
    "judge_tf",
    "mathd_normalize",
    "normalized_equal",
    "parse_lenient_verdict",
    "sympy_normalize",
]


# --- the cascade -------------------------------------------------------------------------

# (given, reference, question) -> True/False/None: the lenient answer judge (evaluators side)
LenientJudge = Callable[[str, str, str], bool | None]


def grade(
    given: str, reference: str, *, question: str = "", judge: LenientJudge | None = None
) -> tuple[bool, str]:
    """(correct, deciding stage) for one boxed answer against one reference content."""
    if normalized_equal(given, reference):
        return True, "mathd"
    split_given, split_ref = given.split("=")[-1], reference.split("=")[-1]
    split = split_given != mathd_normalize(given) or split_ref != reference
    if grade_sympy(given, reference) or (split and grade_sympy(split_given, split_ref)):
        return True, "sympy"
    if grade_math_verify(given, reference) or (split and grade_math_verify(split_given, split_ref)):
        return True, "math_verify"
    if judge is not None:
        verdict = judge(given, reference, question)
        if not verdict and split:
            verdict = judge(split_given, split_ref, question)
        return bool(verdict), "xverify" if verdict else "no_match"
    return False, "no_match"


def normalized_equal(given: str, reference: str) -> bool:
    return mathd_normalize(given) == mathd_normalize(reference)


def align_boxes(boxes: list[str], n: int) -> list[str]:
    """get_answer_str: the last n boxes; when there are fewer, the missing ones are the FIRST
    answers (filled with ""), so the boxes present are graded against the LAST references."""
    boxes = boxes[-n:] if n > 0 else []
    return [""] * (n - len(boxes)) + boxes


def parse_lenient_verdict(reply: str) -> bool:
    """The official judge reply check: exactly 'Correct' or '[Correct]' after stripping."""
    return reply.strip() in ("Correct", "[Correct]")
