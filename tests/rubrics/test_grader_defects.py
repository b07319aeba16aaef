"""Regression tests for the six answer-grader defects of issue 11, one group per defect."""

from __future__ import annotations

import sys
import threading

import pytest

from rubrics.answers import check_answer
from rubrics.lhs import canonical_name, is_bare_name


def accepted(given: str, reference: str, unit: str | None = None) -> bool:
    return check_answer(given, reference, unit=unit)[0]


# 1. math-verify folded case: M/m and R/r were one symbol, and it was asked whenever only one
#    side had "=".
def test_defect1_case_is_never_folded_when_one_side_is_an_equation():
    ref = r"F = \frac{m v^2}{r}"
    assert not accepted(r"\frac{M v^2}{R}", ref)
    assert not accepted(r"\frac{m v^2}{R}", ref)
    assert accepted(r"\frac{m v^2}{r}", ref)
    assert accepted(r"F = m v^2 / r", ref)
    assert "math_verify" not in sys.modules or not accepted(r"\frac{M v^2}{R}", ref)


# 2. The left-hand-side rule: powers and functions are not names; nested braces, ^* and
#    ^{\star} are; names that differ stop the string and numeric rules.
@pytest.mark.parametrize(
    "lhs",
    [
        r"T_{\mathrm{E}}",
        r"T_{E}",
        r"T_E",
        r"W^{\star}",
        r"W^*",
        r"\bar{s}",
        r"x(t)",
        r"v_{c,m}",
        r"M_1'",
        r"\dot\phi",
        r"\text{v}_{\mathrm{max}}",
    ],
)
def test_defect2_bare_names(lhs):
    assert is_bare_name(lhs)


@pytest.mark.parametrize(
    "lhs",
    [
        r"\omega^2",
        r"\sin(Kd)",
        r"\ddot{q}^2",
        r"\delta x",
        r"|\tau|",
        r"\frac{dv}{dt}",
        r"p_1/p_2",
        r"2v",
    ],
)
def test_defect2_not_names(lhs):
    assert not is_bare_name(lhs)


def test_defect2_canonical_names():
    assert canonical_name(r"T_{\mathrm{E}}") == canonical_name("T_E") == "T_E"
    assert canonical_name(r"W^{\star}") == canonical_name("W^{*}") == "W^*"
    assert canonical_name("x(t)") == "x"


def test_defect2_too_loose_cases_are_rejected():
    assert not accepted(r"\omega = \sqrt{k/m}", r"\omega^2 = \sqrt{k/m}")
    assert not accepted(r"\sqrt{k/m}", r"\omega^2 = \sqrt{k/m}")
    assert not accepted(r"\sin(Kd) = \frac{1}{2}", r"\cos(Kd) = \frac{1}{2}")
    assert not accepted(r"\ddot{q}^2 = -\omega^2 q", r"\ddot{q} = -\omega^2 q")
    assert not accepted(r"v_2 = 3.0", r"v_1 = 3.0")  # names differ: no numeric match
    assert not accepted(r"v_2 = \alpha c", r"v_1 = \alpha c")  # ... and no string match


def test_defect2_too_strict_cases_are_accepted():
    ref = r"T_{\mathrm{E}} = \left(\frac{S_0}{4\sigma}\right)^{1/4}"
    assert accepted(r"\left(\frac{S_0}{4\sigma}\right)^{1/4}", ref)
    assert accepted(r"T_E = (S_0/(4\sigma))^{1/4}", ref)
    assert accepted(r"\frac{1}{2}", r"W^{\star} = \frac{1}{2}")
    assert accepted(r"x(t) = R (1 - t/T_0)", r"x = R\left(1 - \frac{t}{T_0}\right)")


# 3. A decimal coefficient times a symbol is compared at the numeric tolerance, 2e-3.
def test_defect3_numeric_coefficients_use_the_tolerance():
    assert accepted(r"0.4198 R", r"0.42 R")
    assert accepted(r"R \cdot 0.4205", r"0.42 R")
    assert not accepted(r"0.41 R", r"0.42 R")
    assert not accepted(r"0.4198 r", r"0.42 R")
    assert not accepted(r"0.42 R + 0.0001 r", r"0.42 R")  # a tolerance never excuses a term
    assert accepted(r"76.19 m \omega a^2", r"\frac{1944 \sqrt{24}}{125} m \omega a^2")


# 4. Inequalities are compared symbolically, keeping the direction.
def test_defect4_inequalities_keep_their_direction():
    ref = r"E > 30 G V / m"
    assert check_answer(r"\frac{30 G V}{m} < E", ref) == (True, "inequality")
    assert accepted(r"m E > 30 G V", ref)
    assert accepted(r"E \geq \frac{30 G V}{m}", ref)
    assert not accepted(r"E < 30 G V / m", ref)
    assert not accepted(r"30 G V / m > E", ref)
    assert not accepted(r"E > 30 G V", ref)
    assert not accepted(r"E > 3 G V / m", ref)
    assert not accepted(r"30 G V / m", ref)


# 5. A single capital before a parenthesis is a product unless the reference uses it as a
#    function.
def test_defect5_capital_before_parenthesis_is_a_product():
    assert accepted(r"M(r^2 - 2rd)", r"M r^2 - 2 M r d")
    assert accepted(r"M (r^2)", r"M r^2")
    assert accepted(r"M r^2 - 2 M r d", r"M(r^2 - 2rd)")
    assert not accepted(r"M(r^2 + 2rd)", r"M r^2 - 2 M r d")


def test_defect5_a_function_of_the_reference_stays_a_function():
    ref = r"\frac{f(r)}{r}"
    assert accepted(r"f(r) / r", ref)
    assert not accepted(r"\frac{f(2r)}{r}", ref)  # f(2r) is not f(r)
    assert not accepted(r"\frac{f \cdot r}{r}", ref)


# 6. Verdicts are deterministic: no wall-clock timeout; the work is bounded instead.
def test_defect6_verdicts_do_not_depend_on_the_thread_or_the_run():
    cases = [
        (r"\frac{M v^2}{R}", r"F = \frac{m v^2}{r}"),
        (r"0.4198 R", r"0.42 R"),
        (
            r"\frac{e}{\sqrt{4\pi\epsilon_0 r m_e}}",
            r"v = \sqrt{\frac{e^2}{4 \pi \varepsilon_0 m_e r}}",
        ),
    ]
    main = [check_answer(g, r) for g, r in cases]
    in_thread: list[object] = []
    worker = threading.Thread(target=lambda: in_thread.extend(check_answer(g, r) for g, r in cases))
    worker.start()
    worker.join()
    assert in_thread == main == [check_answer(g, r) for g, r in cases]


def test_defect6_oversized_work_is_left_undecided_not_timed_out():
    big = " + ".join(f"x^{{{k}}}" for k in range(1, 120))
    shuffled = " + ".join(f"x^{{{k}}}" for k in reversed(range(1, 120)))
    assert check_answer(shuffled, big) == (False, "no_match")  # over the operation bound
    small = " + ".join(f"x^{{{k}}}" for k in range(1, 12))
    assert check_answer(" + ".join(f"x^{{{k}}}" for k in reversed(range(1, 12))), small)[0]
    assert check_answer(r"x^{123456}", r"x^{123456} + 0")[1] == "no_match"  # exponent bound
