"""Every problem with reference answers, in every official file, earns full answer-level marks
when its own reference answers are graded (the grader sanity check)."""

from __future__ import annotations

import pytest

from rubrics.answers import grade_answers, reference_reply
from rubrics.exam import exam_files, load_exam, load_exam_dir
from tests.requirements import require
from tests.rubrics.paths import hipho_dir

# 13 olympiads of 2024-2025 plus CPhO 2025
EXPECTED_FILES = 14
EXPECTED_PROBLEMS = 403


def _files():
    folder = hipho_dir()
    return exam_files(folder) if folder.is_dir() else []


def test_it_finds_all_fourteen_exams():
    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    exams = load_exam_dir(hipho_dir())
    assert len(exams) == EXPECTED_FILES
    assert sum(len(e.problems) for e in exams) == EXPECTED_PROBLEMS
    assert {e.exam_id for e in exams} >= {"ipho-2025", "fma-2024", "cpho-2025", "panmechanics-2025"}


@pytest.mark.parametrize("path", _files() or [None], ids=lambda p: p.stem if p else "missing")
def test_it_gives_full_marks_to_the_references(path):
    require(path is not None, f"shared HiPhO data at {hipho_dir()}")
    exam = load_exam(path)
    gradable = [p for p in exam.problems if p.gradable_answers]
    assert gradable, "every official exam has problems with reference answers"
    short = {}
    for problem in gradable:
        grade = grade_answers(reference_reply(problem), problem)
        if abs(grade.score - problem.full_marks) > 1e-9:
            short[problem.id] = [(v.rule, v.given) for v in grade.verdicts if not v.correct]
        assert all(v.rule != "missing" for v in grade.verdicts)
    assert short == {}


def test_it_leaves_open_ended_items_to_step_grading():
    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    exam = load_exam(hipho_dir() / "EuPhO_2025.json")
    open_items = [p for p in exam.problems if not p.gradable_answers]
    assert [p.id for p in open_items] == ["EuPhO_2025_2_1"]
    grade = grade_answers(reference_reply(open_items[0]), open_items[0])
    assert grade.score == 0
    assert [v.rule for v in grade.verdicts] == ["open_ended"]
