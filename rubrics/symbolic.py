"""Symbolic equivalence of LaTeX expressions and equations.

The LaTeX is parsed with latex2sympy2_extended (the parser math-verify uses). Physics notation
trips general-purpose parsers (``m_e c``, ``R_{\\odot}``, ``\\dot{\\phi}``, ``v_{c,m}``), so every
decorated or subscripted symbol is first replaced by a plain placeholder shared between the two
sides. Equivalence is then decided numerically: both expressions are evaluated at several
random points; equations match when their differences (lhs - rhs) are proportional;
inequalities when their differences, oriented to read "> 0", differ by a positive factor
(rubrics.inequality).

Verdicts are deterministic (issue 11, defect 6): there is no wall-clock timeout anywhere (the
math-verify fallback, whose 2 s alarm flipped verdicts under load and whose comparison folds
case, is gone from the strict grader). The work is bounded instead: input length, exponent and
digit sizes before parsing, and the operation count of the parsed expressions.
"""

from __future__ import annotations

import cmath
import functools
import hashlib
import random
import re
from typing import Any

from rubrics.lhs import ACCENTS, GREEK
from rubrics.normalize import basic, strip_qualifier, unwrap_text
from rubrics.numbers import REL_TOL

_TRIALS = 6
_MATCH_TOL = 1e-6
_MAX_LEN = 600  # longer expressions are left to the judge: the parser slows down sharply
_MAX_OPS = 250  # sympy operation count of one parsed side; more is left undecided
# exponents of 4+ digits, 40+ digit numbers and factorials can make sympy work for minutes
_TOO_BIG = re.compile(r"\^\s*\{?\s*[-+]?\s*\d{4,}|\d{40,}|!")

_FUNCTIONS = {
    "sin",
    "cos",
    "tan",
    "cot",
    "sec",
    "csc",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "coth",
    "exp",
    "ln",
    "log",
    "sqrt",
    "frac",
    "cdot",
    "times",
    "infty",
    "operatorname",
    "left",
    "right",
    "mathrm",
    "text",
    "partial",
    "int",
    "sum",
    "prod",
    "lim",
    "max",
    "min",
    "det",
}
_ACCENT = r"\\(?:vec|hat|dot|ddot|bar|tilde|overline|overrightarrow|mathbf|boldsymbol|mathcal|widehat|widetilde)\s*\{(?:[^{}]|\{[^{}]*\})*\}"
_GREEK_OR_LETTER = r"\\[A-Za-z]+|[A-Za-z]"
_SUB = r"_\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|[A-Za-z0-9])"
_PRIME = r"(?:\s*\^\s*\{\s*'+\s*\}|'+|\s*\^\s*\{?\s*(?:\\star|\\ast|\*)\s*\}?)"  # primes, a star
_DECORATED = re.compile(rf"(?:{_ACCENT}|{_GREEK_OR_LETTER})(?:{_SUB})?{_PRIME}?")


class SymbolTable:
    """Placeholders shared by both sides of one comparison (same symbol -> same name)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def placeholder(self, key: str) -> str:
        # named by content, not by order, so one side prepares to the same text in every
        # comparison and its parse is reused from the cache
        if key not in self.names:
            digest = hashlib.sha1(key.encode()).hexdigest()[:12]
            self.names[key] = f"\\mathit{{zz{digest}}}"
        return self.names[key]


def _canonical(token: str) -> str:
    token = unwrap_text(token)
    token = re.sub(r"\s+", "", token)
    token = re.sub(r"\{([A-Za-z0-9])\}", r"\1", token)
    return token.replace("^{'}", "'").replace("^{''}", "''")


def _substitute(latex: str, table: SymbolTable) -> str:
    """Replace decorated, subscripted or primed symbols by placeholders."""

    def repl(m: re.Match[str]) -> str:
        token = m.group(0)
        plain_letter = re.fullmatch(r"[A-Za-z]", token)
        command = re.fullmatch(r"\\([A-Za-z]+)", token)
        if plain_letter or command:
            return token  # a bare letter or \alpha is already one symbol to the parser
        head = re.match(r"\\([A-Za-z]+)", token)
        if head and head.group(1) in _FUNCTIONS:
            return token
        return " " + table.placeholder(_canonical(token)) + " "

    return _DECORATED.sub(repl, latex)


_LETTER_PAREN = re.compile(r"(?<![A-Za-z\\])([A-Za-z])\s*\(")
_FUNCTION_USE = re.compile(
    r"(?<![A-Za-z\\])([A-Za-z])\s*\(\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:\s*,\s*(?:[A-Za-z]|\\[A-Za-z]+))*\s*\)"
)


def function_letters(reference: str) -> frozenset[str]:
    """Single letters the reference applies as functions: ``f(r)``, ``x(t)``, ``E(x, y, z)``
    (an argument list of bare symbols). Issue 11, defect 5: everywhere else a single letter
    before a parenthesis is a product, ``M(r^2 - 2rd)`` = M times (r^2 - 2rd)."""
    return frozenset(m.group(1) for m in _FUNCTION_USE.finditer(basic(reference)))


def _products(latex: str, functions: frozenset[str]) -> str:
    return _LETTER_PAREN.sub(
        lambda m: m.group(0) if m.group(1) in functions else f"{m.group(1)} \\cdot (", latex
    )


# Commands the parser knows; any other command (a reference's own \tao, \odot, ...) is a name.
_KNOWN_COMMANDS = (
    _FUNCTIONS
    | GREEK
    | ACCENTS
    | {
        "pi",
        "dfrac",
        "tfrac",
        "mathit",
        "hbar",
        "ell",
        "circ",
        "pm",
        "mp",
        "cdots",
        "ldots",
        "div",
        "arcsec",
        "arccsc",
        "arccot",
        "operatorname",
        "mathrm",
        "text",
        "lfloor",
        "rfloor",
        "lceil",
        "rceil",
        "vert",
        "mid",
        "lvert",
        "rvert",
        "quad",
        "qquad",
        "sinh",
        "cosh",
        "tanh",
        "infty",
        "nabla",
        "prime",
        "binom",
        "cfrac",
        "displaystyle",
        "limits",
        "to",
        "rightarrow",
        "approx",
        "leq",
        "geq",
        "le",
        "ge",
        "neq",
        "ne",
        "ll",
        "gg",
        "lt",
        "gt",
        "cos",
        "sin",
        "exp",
    }
)


def _unknown_commands(s: str) -> str:
    return re.sub(
        r"\\([A-Za-z]+)",
        lambda m: m.group(0) if m.group(1) in _KNOWN_COMMANDS else f" \\mathit{{u{m.group(1)}}} ",
        s,
    )


def _square_brackets(s: str) -> str:
    """[ ... ] used as grouping becomes ( ... ); the index of \\sqrt[n]{x} is kept."""
    out, stack = [], []
    for i, ch in enumerate(s):
        if ch == "[":
            keep = s[:i].rstrip().endswith("\\sqrt")
            stack.append(keep)
            out.append("[" if keep else "(")
        elif ch == "]" and stack:
            out.append("]" if stack.pop() else ")")
        else:
            out.append(ch)
    return "".join(out)


def _prepare(text: str, table: SymbolTable, functions: frozenset[str] = frozenset()) -> str | None:
    s = unwrap_text(basic(text))
    s = re.sub(r"\s+([_^])", r"\1", s)  # \mathbf{e}_x unwraps to " e _x": one symbol e_x
    s = strip_qualifier(s)
    if (
        len(s) > _MAX_LEN
        or _TOO_BIG.search(s)
        or re.search(r"\\(?:int|sum|prod|lim|begin|cases)(?![a-zA-Z])", s)
    ):
        return None
    s = s.replace("\\approx", "=")
    s = re.sub(r"\\cdot", "*", s)
    s = re.sub(r"\\mathrm\s*\{\s*d\s*\}", "d", s)
    s = re.sub(r"\\(?:tan|sin|cos)\s*\^\s*\{\s*-1\s*\}", lambda m: "\\arc" + m.group(0)[1:4], s)
    s = re.sub(r"\\hbar(?![a-zA-Z])", r"\\mathit{hbar}", s)
    s = re.sub(r"\\ell(?![a-zA-Z])", r"\\mathit{ell}", s)
    s = re.sub(r"(?<![A-Za-z])\{(\\[A-Za-z]+)\}(?=\s*\^)", r"\1", s)  # {\sin}^{4} -> \sin^{4}
    s = _square_brackets(s)
    s = _unknown_commands(s)
    s = _products(s, functions)
    # the parser reads "2(1)" as 2 + 1 and "3(\frac{4}{3})" as a mixed number: make it a product
    s = re.sub(r"(?<![\^\d.])(\d+(?:\.\d+)?)\s*\(", r"\1 \\cdot (", s)  # not \sin^2(x)
    s = _substitute(s, table)
    # letters sympy would read as constants: \gamma and \Gamma (Euler's constant), I (the
    # imaginary unit); in a physics answer they are quantities
    return re.sub(
        r"\\(gamma|Gamma)(?![A-Za-z])|(?<![A-Za-z\\])I(?![A-Za-z])",
        lambda m: f" \\mathit{{q{m.group(1) or 'I'}}} ",
        s,
    )


_PLAIN_NUMBER = re.compile(r"\s*\d+(?:\.\d+)?\s*")


def _plain_number(latex: str) -> Any:
    """What the parser makes of digits with an optional decimal part, without its grammar
    (``parse_number`` of latex2sympy2_extended: leading zeros of an integer dropped, then
    ``sympy.Number``; the lexer skips the spaces around it); tests/rubrics check it against
    the parser on a corpus."""
    import sympy

    latex = latex.strip()
    if latex.isdigit():
        latex = latex.lstrip("0") or "0"
    return sympy.Number(latex)


@functools.lru_cache(maxsize=2048)
def _parse(latex: str) -> Any:
    """Parse one side; raise _Undecided when it is too big to work on (the operation bound).
    Cached: a reference is compared with many replies, and the parser is the slow part. A
    plain number (the commonest given answer, a different one in every reply, so never in the
    cache) skips the grammar: an ANTLR parse of it cost more than the rest of the grading."""
    import sympy

    if _PLAIN_NUMBER.fullmatch(latex):
        return _plain_number(latex)
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig

    config = ConversionConfig(lowercase_symbols=False, interpret_as_mixed_fractions=False)
    try:
        expr = _fast_parse(latex, config)
    except Exception:  # noqa: BLE001 - SLL could not parse it: the full LL parse decides
        expr = latex2sympy(latex, conversion_config=config)
    if not isinstance(expr, sympy.Basic) or sympy.count_ops(expr) > _MAX_OPS:
        raise _Undecided
    return expr


def _fast_parse(latex: str, config: Any) -> Any:
    """ANTLR's two-stage strategy: the SLL prediction mode first (an order of magnitude faster
    on this grammar), the full LL mode only when SLL reports a syntax error. When SLL parses
    without error its tree is the LL tree, so verdicts do not change; only the work does."""
    from antlr4.atn.PredictionMode import PredictionMode
    from latex2sympy2_extended import latex2sympy2 as l2s

    class _SLL(l2s._Latex2Sympy):  # type: ignore[name-defined,misc]
        def create_parser(self, latex_str: str) -> Any:
            parser = super().create_parser(latex_str)
            parser._interp.predictionMode = PredictionMode.SLL
            return parser

    text = l2s.normalize_latex(latex, l2s.NormalizationConfig())
    return _SLL(None, None, False, config=config).parse(text)


class _Undecided(Exception):
    """The comparison cannot be decided within the work bound."""


def _functions_to_symbols(expr: Any) -> Any:
    """f(r) -> one symbol per distinct application (f(r) and f(2 r) stay different); a
    derivative such as dp/dz likewise."""
    import sympy
    from sympy.core.function import AppliedUndef

    applied = expr.atoms(AppliedUndef) | expr.atoms(sympy.Derivative)  # dp/dz: one quantity
    mapping = {f: sympy.Symbol(f"fn[{f}]") for f in applied}
    return expr.xreplace(mapping) if mapping else expr


def _has_float(*exprs: Any) -> bool:
    """A decimal coefficient: compare at the numeric tolerance (issue 11, defect 3)."""
    import sympy

    return any(e.atoms(sympy.Float) for e in exprs)


def _evaluate(exprs: list[Any], trials: int) -> list[list[complex]] | None:
    """Values of each expression at the same random points; None if too few are finite."""
    import sympy

    exprs = [_functions_to_symbols(sympy.sympify(e)) for e in exprs]
    symbols = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
    rng = random.Random(20250711)
    rows: list[list[complex]] = []
    for k in range(trials * 3):
        # every other point spreads the quantities over four decades, so a tolerance on
        # decimal coefficients cannot hide a wrong term next to a large constant (307 + T
        # against 307 + T^2 differ little while T stays below 1)
        point = {
            s: sympy.Float(rng.uniform(0.35, 0.95) if k % 2 == 0 else 10 ** rng.uniform(-2, 2))
            for s in symbols
        }
        try:
            values = [complex(sympy.N(e.xreplace(point), 15)) for e in exprs]
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            continue
        if all(cmath.isfinite(v) for v in values):
            rows.append(values)
        if len(rows) >= trials:
            break
    return rows if len(rows) >= 3 else None


def _close(a: complex, b: complex, tol: float) -> bool:
    scale = max(abs(a), abs(b))
    return scale == 0 or abs(a - b) <= tol * scale


def _symbols(expr: Any) -> set[Any]:
    return set(_functions_to_symbols(expr).free_symbols)


def _expressions_equal(a: Any, b: Any) -> bool | None:
    a_symbols, b_symbols = _symbols(a), _symbols(b)
    if bool(a_symbols) != bool(b_symbols):
        return False  # a constant never equals an expression in the problem's variables
    floats = _has_float(a, b)
    if floats and a_symbols != b_symbols:
        return False  # a tolerance never excuses a missing or extra quantity
    rows = _evaluate([a, b], _TRIALS)
    if rows is None:
        return None
    constant = not (a_symbols or b_symbols)
    if not constant and all(va == 0 and vb == 0 for va, vb in rows):
        return None  # e.g. exp(-t^2/tau^2) underflows at every sample point: no evidence
    tol = REL_TOL if constant or floats else _MATCH_TOL
    return all(_close(va, vb, tol) for va, vb in rows)


def _equations_equal(a: tuple[Any, Any], b: tuple[Any, Any]) -> bool | None:
    """lhs1 - rhs1 and lhs2 - rhs2 proportional (a nonzero constant ratio). The tolerance is
    the strict one even with decimal coefficients: a ratio of differences can stay near 1
    while a coefficient is far off (the value rules compare named equations' right sides at
    2e-3). An equation without quantities (e.g. 2 = 3) is left undecided."""
    tol = _MATCH_TOL
    if not (_symbols(a[0]) | _symbols(a[1])) or not (_symbols(b[0]) | _symbols(b[1])):
        return None
    rows = _evaluate([a[0], a[1], b[0], b[1]], _TRIALS)
    if rows is None:
        return None
    ratios = []
    for l1, r1, l2, r2 in rows:
        d1, d2 = l1 - r1, l2 - r2
        zero1 = abs(d1) <= tol * max(abs(l1), abs(r1), 1e-300)
        zero2 = abs(d2) <= tol * max(abs(l2), abs(r2), 1e-300)
        if zero1 and zero2:
            continue  # both sides satisfied at this point
        if zero1 or zero2:
            return False
        ratios.append(d1 / d2)
    if not ratios:
        return True  # identities on both sides
    return all(_close(r, ratios[0], tol) for r in ratios)


def _parse_sides(text: str, table: SymbolTable, functions: frozenset[str]) -> list[Any] | None:
    prepared = _prepare(text, table, functions)
    if prepared is None:
        return None
    return [_parse(side) for side in prepared.split("=")]


def expressions_equivalent(given: str, reference: str) -> bool | None:
    """Two expressions (no ``=``): True/False, or None when either cannot be parsed within the
    work bound."""
    return _compare(given, reference, 1)


def equations_equivalent(given: tuple[str, str], reference: tuple[str, str]) -> bool | None:
    """Two equations, each given as (lhs, rhs)."""
    return _compare(" = ".join(given), " = ".join(reference), 2)


def _compare(given: str, reference: str, sides: int) -> bool | None:
    table = SymbolTable()
    functions = function_letters(reference)
    try:
        r = _parse_sides(reference, table, functions)
        g = _parse_sides(given, table, functions)
        if r is None or g is None or len(r) != sides or len(g) != sides:
            return None
        if sides == 1:
            return _expressions_equal(g[0], r[0])
        return _equations_equal((g[0], g[1]), (r[0], r[1]))
    except Exception:  # noqa: BLE001 - the parser raises many kinds on malformed LaTeX: unparsed
        return None


def parse_pair(given: str, reference: str) -> tuple[Any, Any] | None:
    """Both expressions parsed with one symbol table (for rubrics.inequality)."""
    table = SymbolTable()
    functions = function_letters(reference)
    try:
        r = _parse_sides(reference, table, functions)
        g = _parse_sides(given, table, functions)
    except Exception:  # noqa: BLE001 - unparsed
        return None
    if r is None or g is None or len(r) != 1 or len(g) != 1:
        return None
    return _functions_to_symbols(g[0]), _functions_to_symbols(r[0])


def sympy_equivalent(given: str, reference: str) -> bool | None:
    """Expressions or single equations (both of the same kind); None otherwise."""
    g_eq, r_eq = (
        given.count("=") + given.count("\\approx"),
        reference.count("=") + reference.count("\\approx"),
    )
    if g_eq == r_eq == 0:
        return expressions_equivalent(given, reference)
    if g_eq == r_eq == 1:
        return _compare(given, reference, 2)
    return None
