"""The HiPhO family: physics olympiad exams graded at answer level and step level.

``EVALUATOR`` implements evaluators.base.FamilyEvaluator; ``BUILTINS`` lists the built-in
players; ``DEFAULT_BENCHMARKS`` are the demo benchmarks. The modules: ``evaluator`` (items,
grading, aggregation, regrading), ``prompts`` (solver and judge prompts), ``source`` (where
an exam comes from: a folder, the shared data set or the Hugging Face snapshot).
"""

from evaluators.hipho.evaluator import (
    BUILTINS,
    DEFAULT_BENCHMARKS,
    EVALUATOR,
    GRADER_VERSION,
    HiphoEvaluator,
    grade_reply,
    regrade_outcome,
)

__all__ = [
    "BUILTINS",
    "DEFAULT_BENCHMARKS",
    "EVALUATOR",
    "GRADER_VERSION",
    "HiphoEvaluator",
    "grade_reply",
    "regrade_outcome",
]
