"""rubrics.symbolic reads a plain number without the LaTeX grammar: the result must be exactly
the parser's, so no verdict can change."""

from __future__ import annotations

import random

import sympy

from rubrics import symbolic
from rubrics.symbolic import _PLAIN_NUMBER, _parse, _plain_number, expressions_equivalent


def _grammar(latex: str):
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig

    config = ConversionConfig(lowercase_symbols=False, interpret_as_mixed_fractions=False)
    try:
        return symbolic._fast_parse(latex, config)
    except Exception:  # noqa: BLE001 - the same fallback as _parse
        return latex2sympy(latex, conversion_config=config)


def _corpus() -> list[str]:
    rng = random.Random(20251201)
    fixed = ["0", "00", "000.0", "0.0", "007.10", "1.0", "10", "2.50", "123.45", " 42 ", "3.5 "]
    fixed += ["3.14159265358979323846264338327950288", "99999999999999999999", "0001"]
    ints = [str(rng.randint(0, 10 ** rng.randint(1, 15))) for _ in range(60)]
    decimals = [
        f"{'0' * rng.randint(0, 2)}{rng.randint(0, 999)}.{'0' * rng.randint(0, 3)}"
        f"{rng.randint(0, 10 ** rng.randint(1, 9))}"
        for _ in range(120)
    ]
    return fixed + ints + decimals


def test_a_plain_number_is_exactly_what_the_grammar_makes_of_it():
    for latex in _corpus():
        assert _PLAIN_NUMBER.fullmatch(latex), latex
        fast, slow = _plain_number(latex), _grammar(latex)
        assert type(fast) is type(slow) and sympy.srepr(fast) == sympy.srepr(slow), latex
        assert sympy.srepr(_parse(latex)) == sympy.srepr(slow)


def test_anything_else_still_goes_through_the_grammar():
    for latex in ["-3.5", "1e5", "3.", ".5", "1,000", "2 3", "10^{3}", "\\frac{1}{2}", "x"]:
        assert not _PLAIN_NUMBER.fullmatch(latex), latex


def test_verdicts_on_numbers_are_unchanged():
    assert expressions_equivalent("0.5", "\\frac{1}{2}") is True
    assert expressions_equivalent("123.45", "\\sqrt{2}") is False
    assert expressions_equivalent("12", "m g") is False  # a constant never equals an expression
