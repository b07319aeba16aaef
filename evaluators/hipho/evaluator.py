"""The HiPhO family evaluator: one item = one (problem, sample).

A model solves the problem (figures attached for vision models, omitted with a visible flag for
text-only ones); its last N boxed answers are graded against the N references (answer level,
A); with a judge configured, each official marking scheme is graded criterion by criterion
(step level, S). P = max(A, S). ``aggregate`` turns the samples into the exam score, medal,
bootstrap interval and medal probabilities (rubrics.scoring).

The model's reply is stored in the item details, so ``regrade_outcome`` can grade it again with
a newer grader without calling the model.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from evaluators.base import (
    ConfigError,
    EvalContext,
    EvaluationError,
    ItemKey,
    ItemOutcome,
    ModelConfig,
    StoredOutcome,
)
from evaluators.hipho.prompts import (
    PROMPT_VERSION,
    TEMPLATE_HASH,
    answer_judge_prompt,
    lenient_answer_judge_prompt,
    solver_messages,
    step_judge_prompt,
)
from evaluators.hipho.source import (
    SUITE,
    exams_for,
    exams_of_validated,
    is_suite,
    resolve_path,
    validate_config,
)
from evaluators.llm_types import LLMError
from rubrics.answers import GRADER_VERSION as ANSWER_GRADER_VERSION
from rubrics.answers import (
    AnswerJudge,
    GraderProfile,
    grade_answers,
    parse_verdict,
    reference_reply,
)
from rubrics.catalogue import exam_info
from rubrics.errors import ExamFormatError
from rubrics.exam import Exam, Problem, load_exam_dir
from rubrics.scoring import SampleScore, problem_points, score_exam, score_suite
from rubrics.steps import STEP_GRADER_VERSION, grade_steps
from rubrics.vlmevalkit import parse_lenient_verdict

GRADER_VERSION = f"{ANSWER_GRADER_VERSION}+{STEP_GRADER_VERSION}"
MAX_STORED_CHARS = 100_000
MAX_JUDGE_PROMPT_CHARS = 20_000
# Judge re-draws of one prompt use distinct sample indices so the response cache serves a
# fresh draw; item samples are spaced this far apart.
_JUDGE_DRAW_STRIDE = 100

BUILTINS: dict[str, str] = {"reference": "Reference answers (grader sanity check)"}


def _bounded(text: str, limit: int = MAX_STORED_CHARS) -> str:
    return (
        text
        if len(text) <= limit
        else text[:limit] + f"\n[... truncated, {len(text) - limit} more characters]"
    )


def _split_key(key: str, suite: bool) -> tuple[str | None, str]:
    if not suite:
        return None, key
    exam_id, sep, problem_id = key.partition("/")
    if not sep:
        raise EvaluationError(f"suite item key {key!r} must look like exam_id/problem_id")
    return exam_id, problem_id


def _find(conf: Mapping[str, Any], key: str) -> tuple[Exam, Problem]:
    """The exam and problem of ``key`` in a config validate_config returned."""
    exams = exams_of_validated(conf)
    exam_id, problem_id = _split_key(key, is_suite(conf))
    for exam in exams:
        if exam_id is None or exam.exam_id == exam_id:
            try:
                return exam, exam.problem(problem_id)
            except KeyError:
                break
    raise EvaluationError(f"no problem {key!r} in this benchmark's exam(s)")


class _Judge:
    """The benchmark's judge model behind plain callables, one ctx.generate call each."""

    def __init__(self, ctx: EvalContext, judge: ModelConfig, sample_index: int) -> None:
        self.ctx, self.judge, self.base = ctx, judge, sample_index * _JUDGE_DRAW_STRIDE
        self.draws: dict[str, int] = defaultdict(int)
        self.log: list[dict[str, Any]] = []
        self.failures: list[str] = []  # judge calls that failed: the item is judge-failed

    def __call__(self, prompt: str) -> str:
        self.ctx.check_cancelled()
        draw = self.draws[prompt]
        self.draws[prompt] += 1
        completion = self.ctx.generate(
            [{"role": "user", "content": prompt}],
            model=self.judge,
            sample_index=self.base + draw,
            purpose="judge",
        )
        return completion.text

    def answers(self, profile: GraderProfile = "strict") -> AnswerJudge:
        strict = profile == "strict"

        def ask(given: str, reference: str, question: str) -> bool | None:
            build = answer_judge_prompt if strict else lenient_answer_judge_prompt
            prompt = build(given, reference, question)
            try:
                reply = self(prompt)
            except LLMError as exc:  # the rule-based verdict stands; the item is marked
                self.failures.append(f"answer judge: {exc.error_class}: {exc}"[:500])
                return None
            verdict = parse_verdict(reply) if strict else parse_lenient_verdict(reply)
            self.log.append(
                {
                    "role": "judge",
                    "kind": "answer",
                    "text": _bounded(reply, 2000),
                    "prompt": _bounded(prompt, MAX_JUDGE_PROMPT_CHARS),
                    "verdict": verdict,
                }
            )
            return verdict

        return ask


def grade_reply(
    *,
    exam: Exam,
    problem: Problem,
    reply: str,
    judge: Callable[[str], str] | None,
    answer_judge: AnswerJudge | None,
    step_level: bool,
    profile: GraderProfile = "strict",
    judge_failures: list[str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """Grade one stored reply: (scores, grading details, transcript entries).

    A judge that fails (an LLMError from its call) never zeroes the sample: the answer-level
    score stands (P = A, S unknown) and the item is marked judge-failed. The official grader
    ends the same way (a failed fine-grained score is 0, and P = max(fine, coarse))."""
    failures = judge_failures if judge_failures is not None else []
    answers = grade_answers(reply, problem, judge=answer_judge, profile=profile)
    steps = None
    if judge is not None and step_level and problem.marking:
        try:
            steps = grade_steps(problem, reply, judge=judge, build_prompt=step_judge_prompt)
        except LLMError as exc:
            failures.append(f"step judge: {exc.error_class}: {exc}"[:500])
    S = steps.score if steps is not None else None
    P = problem_points(answers.score, S)
    scores = {
        "A": answers.score,
        "S": S,
        "P": P,
        "full": problem.full_marks,
        "best_scheme": steps.best_scheme if steps is not None else None,
        "judge_failed": bool(failures),
    }
    details: dict[str, Any] = {
        "answers": [v.as_dict() for v in answers.verdicts],
        "boxed_found": answers.boxed_found,
        "steps": None
        if steps is None
        else {
            "best_scheme": steps.best_scheme,
            "schemes": [
                {
                    "index": s.index,
                    "total": s.total,
                    "attempts": s.attempts,
                    "scaled": s.scaled,
                    "discarded_totals": list(s.discarded_totals),
                    "criteria": [
                        {
                            "criterion": c.criterion,
                            "raw_score": c.raw_score,
                            "score": c.score,
                            "ours": c.ours,
                            "parse_differs": c.parse_differs,
                            "reply": _bounded(c.reply, 4000),
                        }
                        for c in s.criteria
                    ],
                }
                for s in steps.schemes
            ],
        },
        "answer_level_only": steps is None,
        "judge_failed": bool(failures),
        "judge_failures": failures[:10],
        "grader_version": GRADER_VERSION,
        "grader_profile": profile,
        # criteria whose score our former reading would have read differently (rubrics.steps)
        "judge_parse_differs": None
        if steps is None
        else sum(c.parse_differs for sch in steps.schemes for c in sch.criteria),
    }
    transcript: list[dict[str, Any]] = [
        {
            "role": "parsed",
            "text": "\n".join(f"[{v.index + 1}] {v.given}" for v in answers.verdicts),
            "answers": [v.given for v in answers.verdicts],
        },
    ]
    for v in answers.verdicts:
        transcript.append(
            {
                "role": "grading",
                "text": f"answer {v.index + 1}: {'correct' if v.correct else 'wrong'} "
                f"by rule {v.rule} ({v.awarded:g}/{v.points:g} pt)",
                "index": v.index,
                "rule": v.rule,
                "correct": v.correct,
                "reference": v.reference,
                "given": v.given,
                "points": v.points,
            }
        )
    if steps is not None:
        for s in steps.schemes:
            for n, c in enumerate(s.criteria):
                transcript.append(
                    {
                        "role": "judge",
                        "kind": "criterion",
                        "scheme": s.index,
                        "criterion_index": n,
                        "criterion": c.criterion,
                        "prompt": _bounded(c.prompt, MAX_JUDGE_PROMPT_CHARS),
                        "text": _bounded(c.reply, 4000),
                        "raw_score": c.raw_score,
                        "score": c.score,
                    }
                )
    return scores, details, transcript


class HiphoEvaluator:
    family = "hipho"

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return validate_config(config)

    def items(self, config: Mapping[str, Any], *, samples: int) -> list[ItemKey]:
        conf = validate_config(config)
        exams = exams_for(conf)
        suite = is_suite(conf)
        keys = [f"{e.exam_id}/{p.id}" if suite else p.id for e in exams for p in e.problems]
        return [ItemKey(k, s) for k in keys for s in range(samples)]

    def spec(self, config: Mapping[str, Any]) -> dict[str, Any]:
        conf = validate_config(config)
        exams = exams_for(conf)
        return {
            "family": "hipho",
            "benchmark_content": {e.exam_id: e.content_hash for e in exams},
            "prompt_version": PROMPT_VERSION,
            "prompt_template_hash": TEMPLATE_HASH,
            "grader_version": GRADER_VERSION,
            "grader_profile": conf["grader_profile"],
        }

    def evaluate(
        self, *, config: Mapping[str, Any], model: ModelConfig, item: ItemKey, ctx: EvalContext
    ) -> ItemOutcome:
        conf = validate_config(config)
        exam, problem = _find(conf, item.key)
        transcript: list[dict[str, Any]] = []
        figures_omitted = 0
        sanity = False
        if model.is_builtin:
            if model.builtin_name != "reference":
                raise EvaluationError(f"{model.model} cannot sit a HiPhO exam")
            reply, sanity = reference_reply(problem), True
            transcript.append({"role": "prompt", "text": "(reference answers: no model call)"})
        else:
            messages = solver_messages(exam, problem, vision=model.vision)
            figures_omitted = 0 if model.vision else len(problem.figures)
            prompt_text = messages[-1]["content"]
            if isinstance(prompt_text, list):
                prompt_text = prompt_text[0]["text"]
            transcript.append(
                {
                    "role": "prompt",
                    "text": prompt_text,
                    "system": messages[0]["content"],
                    "figures_attached": len(problem.figures) if model.vision else 0,
                    "figures_omitted": figures_omitted,
                }
            )
            resumed = (ctx.resume or {}).get("reply")
            if isinstance(resumed, str):
                reply = resumed
            else:
                ctx.check_cancelled()
                params = {"temperature": conf["temperature"]} if "temperature" in conf else None
                completion = ctx.generate(
                    messages,
                    model=model,
                    sample_index=item.sample_index,
                    purpose="model",
                    params=params,
                )
                reply = _bounded(completion.text)
                ctx.checkpoint({"reply": reply})  # judge calls after a crash never re-ask the model
        transcript.append({"role": "reply", "text": reply})

        # The reference baseline checks the answer-level grader only: no judge money is spent on it.
        judge = (
            _Judge(ctx, ctx.judge, item.sample_index)
            if ctx.judge is not None and not sanity
            else None
        )
        profile = conf["grader_profile"]
        scores, details, grading = grade_reply(
            exam=exam,
            problem=problem,
            reply=reply,
            judge=judge,
            answer_judge=judge.answers(profile)
            if judge is not None and conf["answer_judge"]
            else None,
            step_level=conf["step_level"],
            profile=profile,
            judge_failures=judge.failures if judge is not None else None,
        )
        transcript.extend(grading)
        if judge is not None:
            transcript.extend(judge.log)
        details.update(
            {
                "exam_id": exam.exam_id,
                "problem_id": problem.id,
                "reply": reply,
                "figures_omitted": figures_omitted,
                "sanity_check": sanity,
                "judged": judge is not None,
                "history": [],
            }
        )
        return ItemOutcome(score=scores["P"], scores=scores, details=details, transcript=transcript)

    def aggregate(
        self, *, config: Mapping[str, Any], outcomes: Sequence[StoredOutcome]
    ) -> dict[str, Any]:
        conf = validate_config(config)
        exams = exams_for(conf)
        suite = is_suite(conf)
        per_exam: dict[str, list[SampleScore]] = {e.exam_id: [] for e in exams}
        failed = judge_failed = 0
        step_graded = False
        sanity = [bool(o.details.get("sanity_check")) for o in outcomes if o.state == "done"]
        for o in outcomes:
            exam_id, problem_id = _split_key(o.key, suite)
            exam_id = exam_id or exams[0].exam_id
            if exam_id not in per_exam:
                continue  # an exam dropped from the folder since the run started
            if o.state != "done":
                failed += 1
                per_exam[exam_id].append(
                    SampleScore(problem_id, o.sample_index, 0.0, None, failed=True)
                )
                continue
            S = o.scores.get("S")
            step_graded = step_graded or S is not None
            judge_failed += bool(o.scores.get("judge_failed"))
            per_exam[exam_id].append(
                SampleScore(
                    problem_id,
                    o.sample_index,
                    float(o.scores.get("A") or 0.0),
                    None if S is None else float(S),
                    best_scheme=o.scores.get("best_scheme"),
                )
            )
        exam_metrics: dict[str, dict[str, Any]] = {}
        for exam in exams:
            info = exam_info(exam.exam_id)
            m = score_exam(
                full_marks={p.id: p.full_marks for p in exam.problems},
                samples=[s for s in per_exam[exam.exam_id] if _known(exam, s.problem_id)],
                cutoffs=info.cutoffs if info else None,
            )
            m.update(
                exam_id=exam.exam_id,
                exam_name=info.name if info else exam.name,
                human_full=info.human_full if info else None,
                official_cutoffs=bool(info and info.official and info.cutoffs),
            )
            exam_metrics[exam.exam_id] = m
        common = {
            "n_items": len(outcomes),
            "n_failed": failed,
            "n_judge_failed": judge_failed,  # judged items whose judge failed: scored at P = A
            "answer_level_only": not step_graded,
            "sanity_check": bool(sanity) and all(sanity),
            "grader_version": GRADER_VERSION,
        }
        if not suite:
            return {**exam_metrics[exams[0].exam_id], **common}
        headline = score_suite(exam_metrics)
        return {
            **headline,
            **common,
            "exam_id": SUITE,
            "exam_name": "HiPhO suite",
            "full_marks": 100.0,
            "human_full": None,
            "score_ci95": None,
            "medal": None,
            "medal_probs": None,
            "cutoffs": None,
            "share_of_top_human": None,
            "exams": exam_metrics,
        }


def _known(exam: Exam, problem_id: str) -> bool:
    return any(p.id == problem_id for p in exam.problems)


def regrade_outcome(
    *,
    config: Mapping[str, Any],
    key: str,
    details: Mapping[str, Any],
    judge: Callable[[str], str] | None = None,
    previous_scores: Mapping[str, Any] | None = None,
) -> ItemOutcome:
    """Grade a stored reply again with the current grader (no model call): the family's
    regrade hook (FamilySpec.regrade). The caller keeps the old grades in the history.

    Without a judge only the answer level is graded again; a step-level grade in
    ``previous_scores`` (a judge graded it before, and did not fail) is kept, and the problem
    score is recombined by the one rule, rubrics.scoring.problem_points (P = max(A, S))."""
    conf = validate_config(config)
    reply = details.get("reply")
    if not isinstance(reply, str):
        raise EvaluationError(f"item {key!r} has no stored reply to re-grade")
    exam, problem = _find(conf, key)
    if details.get("sanity_check"):
        judge = None  # the reference baseline checks the answer-level grader only
    answer_judge = None
    profile = conf["grader_profile"]
    if judge is not None and conf["answer_judge"]:

        def answer_judge(given: str, reference: str, question: str) -> bool | None:
            if profile == "strict":
                return parse_verdict(judge(answer_judge_prompt(given, reference, question)))
            return parse_lenient_verdict(
                judge(lenient_answer_judge_prompt(given, reference, question))
            )

    scores, new_details, transcript = grade_reply(
        exam=exam,
        problem=problem,
        reply=reply,
        judge=judge,
        answer_judge=answer_judge,
        step_level=conf["step_level"],
        profile=profile,
    )
    keep = {
        k: details[k]
        for k in ("exam_id", "problem_id", "reply", "figures_omitted", "sanity_check", "history")
        if k in details
    }
    new_details.update(keep)
    new_details["judged"] = judge is not None
    previous = previous_scores or {}
    if judge is None and previous.get("S") is not None and not previous.get("judge_failed"):
        # keep the stored step-level grade; only the answers were graded again
        scores.update(
            S=previous["S"],
            best_scheme=previous.get("best_scheme"),
            P=problem_points(scores["A"], previous["S"]),
        )
        new_details.update(
            steps=details.get("steps"), answer_level_only=details.get("answer_level_only", False)
        )
    return ItemOutcome(score=scores["P"], scores=scores, details=new_details, transcript=transcript)


def _demo_benchmarks() -> list[dict[str, Any]]:
    folder = resolve_path("data/hipho_demo")
    version = "1"
    try:
        exam = load_exam_dir(folder)[0]
        version = exam.content_hash[:12]
    except (ExamFormatError, OSError, IndexError):
        pass  # the demo data is optional at import time; validate_config reports what is wrong
    return [
        {
            "slug": "hipho/podiumdemo-2025",
            "name": "HiPhO demo exam (Podium, original problems)",
            "version": version,
            "config": {"source": "dir", "path": "data/hipho_demo", "exam": "podiumdemo-2025"},
            "default_samples": 1,
            "description": "A short exam written for Podium in the HiPhO format, with marking schemes "
            "and one figure; illustrative medal cut-offs. For demos and pipeline tests.",
        }
    ]


EVALUATOR = HiphoEvaluator()
DEFAULT_BENCHMARKS: list[dict[str, Any]] = _demo_benchmarks()

__all__ = [
    "BUILTINS",
    "DEFAULT_BENCHMARKS",
    "EVALUATOR",
    "GRADER_VERSION",
    "ConfigError",
    "HiphoEvaluator",
    "grade_reply",
    "regrade_outcome",
]
