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


def _references(exam):
    from rubrics.boxed import reference_content

    for p in exam.problems:
        for i, a in enumerate(p.answers):
            if a.strip():
                yield p, i, reference_content(a)


def test_the_numeric_rule_holds_its_tolerance_on_every_official_number():
    """Each numeric reference accepts itself off by 0.1% (written in e-notation) and rejects
    itself off by 1%; each interval accepts its midpoint and rejects 5% beyond its end."""
    from rubrics.answers import check_answer
    from rubrics.lhs import split_form
    from rubrics.numbers import parse_interval, parse_number

    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    numbers = intervals = 0
    for exam in load_exam_dir(hipho_dir()):
        for p, i, ref in _references(exam):
            unit = p.units[i]
            interval = parse_interval(ref, unit)
            if interval is not None:
                intervals += 1
                mid = (interval.lo + interval.hi) / 2
                beyond = interval.hi * (1.05 if interval.hi > 0 else 0.95)
                assert check_answer(f"{mid:.6e}", ref, unit=unit) == (True, "numeric"), p.id
                assert not check_answer(f"{beyond:.6e}", ref, unit=unit)[0], p.id
                continue
            form = split_form(ref)  # "\\delta = 4": the number after a bare name
            number = parse_number(form.final, unit) if form.final is not None else None
            if number is None or number.value == 0:
                continue
            numbers += 1
            assert check_answer(f"{number.value * 1.001:.6e}", ref, unit=unit)[0], p.id
            assert not check_answer(f"{number.value * 1.01:.6e}", ref, unit=unit)[0], p.id
    assert (numbers, intervals) == (95, 43)


def test_the_symbolic_rule_tells_a_doubled_expression_apart():
    """On IPhO 2025, every expression reference that sympy parses is equivalent to itself and
    not to twice itself (a guard against vacuous equality after placeholder substitution)."""
    from rubrics.lhs import is_bare_name
    from rubrics.normalize import basic, strip_qualifier
    from rubrics.symbolic import sympy_equivalent

    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    checked = 0
    for p, i, ref in _references(load_exam(hipho_dir() / "IPhO_2025.json")):
        if p.answer_types[i] != "Expression":
            continue
        text = strip_qualifier(basic(ref)).replace("\\approx", "=")
        lhs, eq, rhs = text.partition("=")
        expr = rhs if eq and is_bare_name(lhs) else text
        if "=" in expr or sympy_equivalent(expr, expr) is not True:
            continue
        checked += 1
        assert sympy_equivalent(f"2 ({expr})", expr) is False, p.id
    assert checked >= 30
