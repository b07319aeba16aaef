"""Prompts for HiPhO: the solving prompt and the two judge prompts (step criteria, answers).

The template texts are hashed into ``TEMPLATE_HASH`` and stored with every run, so a change of
wording is visible as a change of spec.
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import Any

from evaluators.base import Message, stable_hash
from rubrics.exam import Exam, Problem
from rubrics.steps import Attempt

PROMPT_VERSION = "hipho-prompts-2"

SOLVER_SYSTEM = (
    "You are an expert physicist sitting a theoretical physics olympiad paper. Solve each "
    "problem rigorously: state the physical principles you use, derive results step by step, "
    "keep symbols as defined in the problem and give numerical values with sensible significant "
    "figures and units."
)

SOLVER_USER = """\
{information_block}{context_block}## Question
{question}
{figure_block}
Solve the question above. Show your reasoning. Put each final answer in its own \\boxed{{}}; \
this question expects {n_answers} final answer(s), boxed in the order they are asked, with the \
last {n_answers} \\boxed{{}} of your reply being those answers."""

FIGURES_OMITTED = (
    "[FIGURES OMITTED: this problem has {n} figure(s) that are not shown because the model "
    "under evaluation receives text only. Work from the text.]"
)
FIGURES_ATTACHED = "[{n} figure(s) attached below, in the order they are referenced.]"

STEP_JUDGE = """\
You are a strict and conservative grader for an international physics olympiad. You grade one \
marking criterion at a time against a contestant's written solution.

Rules:
- Award points only for what the solution explicitly writes down and that is physically \
correct. Do not infer steps that are not shown; do not give credit for intent.
- A correct final result reached through a wrong or missing argument earns only what the \
criterion grants for the result itself.
- Apply the criterion's partial-credit instructions exactly; never exceed the points it states.
- When in doubt, award less.

## Problem
{context}

{question}

## Contestant's solution
{reply}

## Marking criterion
{criterion}
{limits}

Explain briefly (at most a few sentences) whether the criterion is met, then give the points \
awarded for this criterion alone as a single number in \\boxed{{}}, for example \\boxed{{0.5}}."""

ANSWER_JUDGE = """\
You are a strict physics-olympiad grader. Decide whether a contestant's final answer is \
equivalent to the reference answer of the question below: the same physical quantity, \
mathematically equal (rearranged forms, equivalent units and numerical values within 0.2% are \
equal); a different quantity, a missing factor or sign, or a value outside the tolerance is not.

## Question
{question}

## Reference answer
{reference}

## Contestant's answer
{given}

Reply with exactly one word: CORRECT or INCORRECT."""

# What the judge is told about the total (every attempt) and about a re-grade (issue 11: a
# temperature-0 judge that is simply asked again answers the same). The official grader tells
# its judge the same facts (VLMEvalKit hipho_prompt_inference.py, TOTAL_SCORE_WARNING_TEMPLATE
# and RETRY_WARNING_TEMPLATE); the wording here is ours.
STEP_LIMITS = """
This criterion is one of several for this problem; together they may award at most \
{max_total:g} point(s). This is grading attempt {attempt}."""
STEP_REGRADE = """
This is a re-grade: on the previous attempt(s) the criteria's total came to {previous}, more \
than the {max_total:g} point(s) the problem is worth. Grade this criterion again, strictly by \
its own wording."""

# The lenient answer judge of the vlmevalkit profile: the official xverify rules (VLMEvalKit
# hipho_verifier.py, grade_answer_xverify) in our words; its reply must be exactly
# "[Correct]" or "[Incorrect]" (rubrics.vlmevalkit.parse_lenient_verdict).
LENIENT_ANSWER_JUDGE = """Decide whether the output below answers the question correctly, given the correct answer.
- If the output gives several answers and later ones revise earlier ones, judge the final one; \
if the final answer is unclear or wrong, it is incorrect.
- Mathematically equivalent answers in different forms are correct (e.g. 256/55 and 4.65).
- For physics answers, matching values are correct even when one carries a unit (3 and 3 GHz).
- If the question lists options, the output is correct when it clearly names the right option \
by its code or its content.
- Otherwise the output must agree with the correct answer in content and meaning.

Question: \"\"\"{question}\"\"\"
Output: \"\"\"{given}\"\"\"
Correct answer: {reference}

Reply with exactly [Correct] or [Incorrect] and nothing else."""

TEMPLATE_HASH = stable_hash(
    {
        "version": PROMPT_VERSION,
        "system": SOLVER_SYSTEM,
        "user": SOLVER_USER,
        "omitted": FIGURES_OMITTED,
        "attached": FIGURES_ATTACHED,
        "step_judge": STEP_JUDGE,
        "answer_judge": ANSWER_JUDGE,
        "step_limits": STEP_LIMITS,
        "step_regrade": STEP_REGRADE,
        "lenient_answer_judge": LENIENT_ANSWER_JUDGE,
    }
)


def _information(exam: Exam) -> str:
    text = exam.information.strip()
    if not text or text.rstrip(".").lower() == "none":
        return ""
    return f"## Exam information sheet\n{text}\n\n"


def solver_text(exam: Exam, problem: Problem, *, vision: bool) -> str:
    n_fig = len(problem.figures)
    if n_fig and vision:
        figure_block = "\n" + FIGURES_ATTACHED.format(n=n_fig) + "\n"
    elif n_fig:
        figure_block = "\n" + FIGURES_OMITTED.format(n=n_fig) + "\n"
    else:
        figure_block = ""
    context = problem.context.strip()
    return SOLVER_USER.format(
        information_block=_information(exam),
        context_block=f"## Context\n{context}\n\n" if context else "",
        question=problem.question.strip(),
        figure_block=figure_block,
        n_answers=len(problem.answers),
    )


def image_part(path: Path) -> dict[str, Any]:
    mime = mimetypes.guess_type(path.name)[0] or "image/png"
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{data}"}}


def solver_messages(exam: Exam, problem: Problem, *, vision: bool) -> list[Message]:
    """System + user messages; figures become base64 image parts for vision models only."""
    text = solver_text(exam, problem, vision=vision)
    if vision and problem.figures:
        content: Any = [{"type": "text", "text": text}] + [
            image_part(exam.figure_path(f)) for f in problem.figures
        ]
    else:
        content = text
    return [{"role": "system", "content": SOLVER_SYSTEM}, {"role": "user", "content": content}]


def step_judge_prompt(problem: Problem, reply: str, criterion: str, attempt: Attempt) -> str:
    limits = STEP_LIMITS.format(max_total=attempt.max_total, attempt=attempt.number)
    if attempt.regrade:
        previous = ", then ".join(f"{t:g}" for t in attempt.previous_totals)
        limits += STEP_REGRADE.format(previous=previous, max_total=attempt.max_total)
    return STEP_JUDGE.format(
        context=problem.context.strip(),
        question=problem.question.strip(),
        reply=reply,
        criterion=criterion,
        limits=limits,
    )


def answer_judge_prompt(given: str, reference: str, question: str) -> str:
    return ANSWER_JUDGE.format(question=question.strip(), reference=reference, given=given)


def lenient_answer_judge_prompt(given: str, reference: str, question: str) -> str:
    return LENIENT_ANSWER_JUDGE.format(question=question.strip(), reference=reference, given=given)
