"""Step-level grading against the official marking schemes, with an LLM judge.

For each scheme, one judge call per criterion: the judge sees the question, the model's full
reply and the criterion, and replies with a score in ``\\boxed{}``. The score is the last boxed
number, else the last number in the reply (else 0, flagged unparseable). Negative scores count
as 0. If a scheme's total exceeds the problem's full mark the whole scheme is re-graded (up to
3 times); if it still exceeds, its criteria are scaled down in proportion. The best scheme wins.

The judge is a plain callable ``prompt -> reply text``; the prompt is built by a callable the
caller supplies (the wording lives with the evaluator, not here).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rubrics.boxed import boxed_contents
from rubrics.exam import Problem

STEP_GRADER_VERSION = "hipho-step-1"
MAX_REGRADES = 3

Judge = Callable[[str], str]
# (problem, model reply, criterion) -> judge prompt
StepPrompt = Callable[[Problem, str, str], str]

_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def parse_score(reply: str) -> float | None:
    """The last boxed number, else the last number anywhere; None when there is none."""
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
    raw_score: float | None  # None: the reply held no number
    score: float  # after clamping at 0 and any proportional scale-down

    def as_dict(self) -> dict[str, object]:
        return {"criterion": self.criterion, "prompt": self.prompt, "reply": self.reply,
                "raw_score": self.raw_score, "score": self.score}


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


def _grade_once(problem: Problem, reply: str, scheme: tuple[str, ...], judge: Judge,
                build_prompt: StepPrompt) -> list[CriterionGrade]:
    out = []
    for criterion in scheme:
        prompt = build_prompt(problem, reply, criterion)
        answer = judge(prompt)
        raw = parse_score(answer)
        out.append(CriterionGrade(criterion, prompt, answer, raw, max(0.0, raw or 0.0)))
    return out


def grade_scheme(problem: Problem, reply: str, index: int, judge: Judge,
                 build_prompt: StepPrompt) -> SchemeGrade:
    full = problem.full_marks
    scheme = problem.marking[index]
    discarded: list[float] = []
    attempts = 0
    while True:
        attempts += 1
        grades = _grade_once(problem, reply, scheme, judge, build_prompt)
        total = sum(g.score for g in grades)
        if total <= full + 1e-9:
            return SchemeGrade(index, tuple(grades), attempts, False, tuple(discarded))
        if attempts > MAX_REGRADES:
            break
        discarded.append(round(total, 9))
    factor = full / total
    scaled = tuple(
        CriterionGrade(g.criterion, g.prompt, g.reply, g.raw_score, g.score * factor) for g in grades
    )
    return SchemeGrade(index, scaled, attempts, True, tuple(discarded))


def grade_steps(problem: Problem, reply: str, *, judge: Judge, build_prompt: StepPrompt) -> StepGrade:
    """S = the best scheme's total; None (best_scheme None) when the problem has no scheme."""
    if not problem.marking:
        return StepGrade((), problem.full_marks, None, ("no marking scheme",))
    schemes = tuple(
        grade_scheme(problem, reply, i, judge, build_prompt) for i in range(len(problem.marking))
    )
    best = max(range(len(schemes)), key=lambda i: (schemes[i].total, -i))
    return StepGrade(schemes, problem.full_marks, best)
