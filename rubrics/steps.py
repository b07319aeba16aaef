"""Step-level grading against the official marking schemes, with an LLM judge.

The official rules (VLMEvalKit ``vlmeval/dataset/hipho.py`` at commit e8e78f05, methods
``_evaluate_fine_grained``, ``_evaluate_multiple_marking_sets``, ``_evaluate_single_criterion``
and ``_extract_score_from_response``), ported as definitions:

* one judge call per criterion; the judge sees the question, the model's reply, the criterion,
  the problem's maximum total and the attempt number;
* a problem with ONE scheme: if the criteria's total exceeds the problem's full mark the scheme
  is graded again (up to 3 re-grades), each re-grade telling the judge its attempt number and
  that the previous total exceeded the maximum (so a temperature-0 judge can answer
  differently); if the last attempt still exceeds, every criterion is scaled down in proportion
  (each rounded to 2 decimals);
* a problem with SEVERAL schemes: each scheme is graded once (no re-grade), scaled down in
  proportion when it exceeds the full mark; the best scheme wins;
* the score is read the official way (:func:`parse_score`); our former reading
  (:func:`parse_score_ours`) is recorded beside it and any disagreement flagged.

Beyond the official code: a negative score counts as 0; a judge that fails (raises) is the
caller's business: the evaluator keeps the answer-level score (P = A) and marks the item.

The judge is a plain callable ``prompt -> reply text``; the prompt is built by a callable the
caller supplies (the wording lives with the evaluator, not here).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rubrics.boxed import boxed_contents
from rubrics.exam import Problem

STEP_GRADER_VERSION = "hipho-step-2"
MAX_REGRADES = 3

Judge = Callable[[str], str]


@dataclass(frozen=True)
class Attempt:
    """What the judge is told about this pass over a scheme."""

    number: int  # 1-based
    max_total: float  # the problem's full mark
    previous_totals: tuple[float, ...] = ()  # totals of earlier passes (all exceeded max_total)

    @property
    def regrade(self) -> bool:
        return self.number > 1


# (problem, model reply, criterion, attempt) -> judge prompt
StepPrompt = Callable[[Problem, str, str, Attempt], str]

_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def parse_score(reply: str) -> float:
    """The official reading: in the last ``\\boxed{...}`` (content up to the first ``}``) that
    holds one, the whole content as a number, else its last unsigned number; else the last
    unsigned number anywhere in the reply; else 0. Rounded to 2 decimals."""
    text = reply.strip()
    for pattern in (r"\\boxed\{([^}]+)\}", r"boxed\{([^}]+)\}"):
        for match in reversed(re.findall(pattern, text, re.IGNORECASE)):
            match = match.strip()
            if not match:
                continue
            try:
                return round(float(match), 2)
            except ValueError:
                numbers = re.findall(r"\d+\.?\d*", match)
                if numbers:
                    return round(float(numbers[-1]), 2)
    numbers = re.findall(r"[0-9]*\.?[0-9]+", text)
    return round(float(numbers[-1]), 2) if numbers else 0.0


def parse_score_ours(reply: str) -> float | None:
    """Our former reading: the last number of the last box that holds one (nested braces
    kept), else the last signed number anywhere; None when there is none."""
    for content in reversed(boxed_contents(reply)):
        found = _NUMBER.findall(content)
        if found:
            return float(found[-1])
    found = _NUMBER.findall(reply)
    return float(found[-1]) if found else None


@dataclass(frozen=True)
class CriterionGrade:
    criterion: str
    prompt: str
    reply: str
    raw_score: float  # the official reading of the reply
    score: float  # after clamping at 0 and any proportional scale-down
    ours: float | None = None  # our former reading, kept to show where the two differ

    @property
    def parse_differs(self) -> bool:
        return self.ours is None or abs(self.ours - self.raw_score) > 1e-9

    def as_dict(self) -> dict[str, object]:
        return {
            "criterion": self.criterion,
            "prompt": self.prompt,
            "reply": self.reply,
            "raw_score": self.raw_score,
            "score": self.score,
            "ours": self.ours,
            "parse_differs": self.parse_differs,
        }


@dataclass(frozen=True)
class SchemeGrade:
    index: int
    criteria: tuple[CriterionGrade, ...]
    attempts: int  # judge passes over the scheme (1 + re-grades)
    scaled: bool  # True when the final total was scaled down to the full mark
    discarded_totals: tuple[float, ...] = ()  # totals of passes that exceeded the full mark

    @property
    def total(self) -> float:
        return round(sum(c.score for c in self.criteria), 9)


@dataclass(frozen=True)
class StepGrade:
    schemes: tuple[SchemeGrade, ...]
    full: float
    best_scheme: int | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def score(self) -> float | None:
        if self.best_scheme is None:
            return None
        return self.schemes[self.best_scheme].total


def _grade_once(
    problem: Problem,
    reply: str,
    scheme: tuple[str, ...],
    judge: Judge,
    build_prompt: StepPrompt,
    attempt: Attempt,
) -> list[CriterionGrade]:
    out = []
    for criterion in scheme:
        if not criterion.strip():
            continue  # the official parser skips empty criteria
        prompt = build_prompt(problem, reply, criterion, attempt)
        answer = judge(prompt)
        raw = parse_score(answer)
        out.append(
            CriterionGrade(criterion, prompt, answer, raw, max(0.0, raw), parse_score_ours(answer))
        )
    return out


def _scaled(grades: list[CriterionGrade], full: float, total: float) -> tuple[CriterionGrade, ...]:
    factor = full / total
    return tuple(
        CriterionGrade(
            g.criterion, g.prompt, g.reply, g.raw_score, round(g.score * factor, 2), g.ours
        )
        for g in grades
    )


def grade_scheme(
    problem: Problem,
    reply: str,
    index: int,
    judge: Judge,
    build_prompt: StepPrompt,
    *,
    regrades: int = MAX_REGRADES,
) -> SchemeGrade:
    """One scheme: graded, re-graded while over the full mark (``regrades`` times at most),
    then scaled down in proportion if still over."""
    full = problem.full_marks
    scheme = problem.marking[index]
    discarded: list[float] = []
    attempts = 0
    while True:
        attempts += 1
        attempt = Attempt(attempts, full, tuple(discarded))
        grades = _grade_once(problem, reply, scheme, judge, build_prompt, attempt)
        total = sum(g.score for g in grades)
        if total <= full + 1e-9 or full <= 0:
            return SchemeGrade(index, tuple(grades), attempts, False, tuple(discarded))
        if attempts > regrades:
            break
        discarded.append(round(total, 9))
    return SchemeGrade(index, _scaled(grades, full, total), attempts, True, tuple(discarded))


def grade_steps(
    problem: Problem, reply: str, *, judge: Judge, build_prompt: StepPrompt
) -> StepGrade:
    """S = the best scheme's total; None (best_scheme None) when the problem has no scheme.
    Several schemes are graded once each (then scaled), as the official rule does."""
    if not problem.marking:
        return StepGrade((), problem.full_marks, None, ("no marking scheme",))
    several = len(problem.marking) > 1
    schemes = tuple(
        grade_scheme(
            problem, reply, i, judge, build_prompt, regrades=0 if several else MAX_REGRADES
        )
        for i in range(len(problem.marking))
    )
    best = max(range(len(schemes)), key=lambda i: (schemes[i].total, -i))
    notes = ("several schemes: each graded once, then scaled",) if several else ()
    return StepGrade(schemes, problem.full_marks, best, notes)
