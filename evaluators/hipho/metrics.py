"""HiPhO's Run.metrics: the one contract between the writer (HiphoEvaluator.aggregate, through
rubrics.scoring.score_exam / score_suite) and the readers (leaderboard entries, the medal table
and exam pages, the API). Points are exam points; a suite run's headline is a percentage."""

from __future__ import annotations

from typing import TypedDict

from evaluators.base import RunMetrics


class ProblemMetrics(TypedDict):
    full: float  # the problem's full mark
    A: float  # mean answer-level points over samples (failed samples count 0)
    S: float | None  # mean step-level (marking scheme) points; None when nothing was step-graded
    P: float  # mean problem score, P = max(A, S) per sample
    best_scheme: int | None  # the official scheme that scored best most often
    samples: int
    failed: int


class Cutoffs(TypedDict, total=False):
    gold: float
    silver: float
    bronze: float
    top_human: float


class _ExamHeadline(TypedDict):
    score: float | None  # points: sum over problems of the mean P
    score_se: float | None


class ExamMetrics(_ExamHeadline, total=False):
    """One exam (rubrics.scoring.score_exam plus the exam's identity)."""

    score_ci95: list[float] | None  # bootstrap 95 % interval over samples
    full_marks: float
    problems: dict[str, ProblemMetrics]
    medal: str | None  # gold / silver / bronze / none at the official human cut-offs
    medal_probs: dict[str, float] | None  # bootstrap probability of each medal
    cutoffs: Cutoffs | None
    share_of_top_human: float | None
    score_published: (
        float  # the score as published (one decimal, half up): what the medal is read from
    )
    medal_basis: str  # says so in words
    exam_id: str
    exam_name: str
    human_full: float | None
    official_cutoffs: bool


class HiphoMetrics(RunMetrics, ExamMetrics, total=False):
    """A single-exam run: the exam's metrics plus run bookkeeping. A suite run (exam_id "suite")
    has score in percent of full marks (mean over exams), medal_counts, and "exams": one
    ExamMetrics per exam, from which the leaderboard makes one entry per exam."""

    answer_level_only: bool  # no step-level grade at all (no judge configured)
    sanity_check: bool  # the reference-answer baseline: checks the grader, never ranked
    n_judge_failed: int  # judged items whose judge failed: scored at P = A
    grader_version: str
    score_unit: str
    medal_counts: dict[str, int]
    exams: dict[str, ExamMetrics]
