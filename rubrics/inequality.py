"""Inequalities compared symbolically, keeping their direction (issue 11, defect 4).

``E > 30 G V / m``, ``30 G V / m < E`` and ``m E > 30 G V`` state one condition. Each answer is
read as ``d > 0`` (``a > b`` gives ``d = a - b``, ``a < b`` gives ``d = b - a``); two answers
agree when ``d_given = c * m * d_reference`` with ``c`` a positive constant and ``m`` a product
of powers of the problem's quantities, which are positive (masses, lengths, fields' sizes), so
multiplying through by them keeps the direction. Strict and non-strict signs are read alike:
a physics threshold does not hinge on its boundary point. ``\\ll`` is read as ``<``, ``\\gg``
as ``>``; ``\\neq`` and chained inequalities (``0 < x < 1``) are left to the string rule.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from rubrics.normalize import basic, strip_qualifier
from rubrics.symbolic import parse_pair

Direction = Literal["<", ">"]

_OPERATOR = re.compile(
    r"\\(?:leq|le|ll|lesssim|leqslant)(?![A-Za-z])|<|\\(?:geq|ge|gg|gtrsim|geqslant)(?![A-Za-z])|>"
)
_CANCEL_OPS = 120  # operation bound on the ratio before sympy.cancel (deterministic work)


def split_inequality(text: str) -> tuple[str, Direction, str] | None:
    """(lhs, direction, rhs) of a single inequality; None for anything else."""
    s = strip_qualifier(basic(text))
    found = list(_OPERATOR.finditer(s))
    if len(found) != 1 or "=" in s.replace("\\leq", "").replace("\\geq", ""):
        return None
    m = found[0]
    op = m.group(0)
    direction: Direction = "<" if op == "<" or op.startswith("\\l") else ">"
    lhs, rhs = s[: m.start()].strip(), s[m.end() :].strip()
    if not lhs or not rhs:
        return None
    return lhs, direction, rhs


def is_inequality(text: str) -> bool:
    return bool(_OPERATOR.search(strip_qualifier(basic(text))))


def _oriented(parts: tuple[str, Direction, str]) -> str:
    """The text of d in "d > 0"."""
    lhs, direction, rhs = parts
    return f"({lhs}) - ({rhs})" if direction == ">" else f"({rhs}) - ({lhs})"


def _positive_monomial(expr: Any) -> bool:
    import sympy

    for factor in sympy.Mul.make_args(expr):
        if factor.is_Number:
            if not factor > 0:
                return False
        elif factor.is_Symbol or factor.is_Pow and factor.base.is_Symbol and factor.exp.is_Number:
            continue
        else:
            return False
    return True


def inequalities_equivalent(given: str, reference: str) -> bool | None:
    """True/False when both are single inequalities that parse; None otherwise."""
    import sympy

    g, r = split_inequality(given), split_inequality(reference)
    if g is None or r is None:
        return None
    pair = parse_pair(_oriented(g), _oriented(r))
    if pair is None:
        return None
    dg, dr = pair
    if dr == 0 or dg == 0:
        return None
    ratio = dg / dr
    if sympy.count_ops(ratio) > _CANCEL_OPS:
        return None
    return _positive_monomial(sympy.cancel(sympy.together(ratio)))
