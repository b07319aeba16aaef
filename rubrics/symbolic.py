"""Symbolic equivalence of LaTeX expressions and equations.

The LaTeX is parsed with latex2sympy2_extended (the parser math-verify uses). Physics notation
trips general-purpose parsers (``m_e c``, ``R_{\\odot}``, ``\\dot{\\phi}``, ``v_{c,m}``), so every
decorated or subscripted symbol is first replaced by a plain placeholder shared between the two
sides. Equivalence is then decided numerically: both expressions are evaluated at several
random points; equations match when their differences (lhs - rhs) are proportional.
math-verify is the fallback when our parse fails.
"""

from __future__ import annotations

import cmath
import random
import re
import threading
from typing import Any

from rubrics.normalize import basic, strip_qualifier, unwrap_text
from rubrics.numbers import REL_TOL

_TRIALS = 6
_MATCH_TOL = 1e-6
_MAX_LEN = 600  # longer expressions are left to the judge: the parser slows down sharply

_FUNCTIONS = {
    "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "coth", "exp", "ln", "log", "sqrt", "frac", "pi", "cdot", "times", "infty", "operatorname",
    "left", "right", "mathrm", "text", "partial", "int", "sum", "prod", "lim", "max", "min", "det",
}
_ACCENT = r"\\(?:vec|hat|dot|ddot|bar|tilde|overline|overrightarrow|mathbf|boldsymbol|mathcal|widehat|widetilde)\s*\{[^{}]*\}"
_GREEK_OR_LETTER = r"\\[A-Za-z]+|[A-Za-z]"
_SUB = r"_\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|[A-Za-z0-9])"
_PRIME = r"(?:\s*\^\s*\{\s*'+\s*\}|'+)"
_DECORATED = re.compile(rf"(?:{_ACCENT}|{_GREEK_OR_LETTER})(?:{_SUB})?{_PRIME}?")


class SymbolTable:
    """Placeholders shared by both sides of one comparison (same symbol -> same name)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def placeholder(self, key: str) -> str:
        if key not in self.names:
            self.names[key] = f"\\mathit{{zz{len(self.names)}}}"
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


def _prepare(text: str, table: SymbolTable) -> str | None:
    s = unwrap_text(basic(text))
    s = strip_qualifier(s)
    if len(s) > _MAX_LEN or re.search(r"\\(?:int|sum|prod|lim|begin|cases)(?![a-zA-Z])", s):
        return None
    s = s.replace("\\approx", "=")
    s = re.sub(r"\\cdot", "*", s)
    s = re.sub(r"\\mathrm\s*\{\s*d\s*\}", "d", s)
    s = re.sub(r"\\(?:tan|sin|cos)\s*\^\s*\{\s*-1\s*\}", lambda m: "\\arc" + m.group(0)[1:4], s)
    s = re.sub(r"\\hbar(?![a-zA-Z])", r"\\mathit{hbar}", s)
    s = re.sub(r"\\ell(?![a-zA-Z])", r"\\mathit{ell}", s)
    return _substitute(s, table)


def _parse(latex: str) -> Any:
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig

    config = ConversionConfig(lowercase_symbols=False, interpret_as_mixed_fractions=False)
    return latex2sympy(latex, conversion_config=config)


def _relation_sides(latex: str) -> tuple[str, str] | None:
    parts = latex.split("=")
    if len(parts) != 2:
        return None
    return parts[0], parts[1]


def _functions_to_symbols(expr: Any) -> Any:
    import sympy
    from sympy.core.function import AppliedUndef

    mapping = {f: sympy.Symbol(f"fn_{f.func.__name__}_{len(f.args)}") for f in expr.atoms(AppliedUndef)}
    return expr.xreplace(mapping) if mapping else expr


def _evaluate(exprs: list[Any], trials: int) -> list[list[complex]] | None:
    """Values of each expression at the same random points; None if too few are finite."""
    import sympy

    exprs = [_functions_to_symbols(sympy.sympify(e)) for e in exprs]
    symbols = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
    rng = random.Random(20250711)
    rows: list[list[complex]] = []
    for _ in range(trials * 2):
        point = {s: sympy.Float(rng.uniform(0.35, 0.95)) for s in symbols}
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


def _expressions_equal(a: Any, b: Any) -> bool | None:
    a_symbols: set[Any] = getattr(a, "free_symbols", set())
    b_symbols: set[Any] = getattr(b, "free_symbols", set())
    if bool(a_symbols) != bool(b_symbols):
        return False  # a constant never equals an expression in the problem's variables
    rows = _evaluate([a, b], _TRIALS)
    if rows is None:
        return None
    constant = not (a_symbols or b_symbols)
    if not constant and all(va == 0 and vb == 0 for va, vb in rows):
        return None  # e.g. exp(-t^2/tau^2) underflows at every sample point: no evidence
    tol = REL_TOL if constant else _MATCH_TOL
    return all(_close(va, vb, tol) for va, vb in rows)


def _equations_equal(a: tuple[Any, Any], b: tuple[Any, Any]) -> bool | None:
    """lhs1 - rhs1 and lhs2 - rhs2 proportional (a nonzero constant ratio)."""
    rows = _evaluate([a[0], a[1], b[0], b[1]], _TRIALS)
    if rows is None:
        return None
    ratios = []
    for l1, r1, l2, r2 in rows:
        d1, d2 = l1 - r1, l2 - r2
        zero1 = abs(d1) <= _MATCH_TOL * max(abs(l1), abs(r1), 1e-300)
        zero2 = abs(d2) <= _MATCH_TOL * max(abs(l2), abs(r2), 1e-300)
        if zero1 and zero2:
            continue  # both sides satisfied at this point
        if zero1 or zero2:
            return False
        ratios.append(d1 / d2)
    if not ratios:
        return True  # identities on both sides
    return bool(ratios) and all(_close(r, ratios[0], _MATCH_TOL) for r in ratios)


def sympy_equivalent(given: str, reference: str) -> bool | None:
    """True/False when both sides parse; None when either cannot be parsed."""
    table = SymbolTable()
    g, r = _prepare(given, table), _prepare(reference, table)
    if g is None or r is None:
        return None
    if re.search(r"[<>]|\\[lg]eq?(?![a-zA-Z])", g + r):
        return None  # inequalities: string rules only
    try:
        g_rel, r_rel = _relation_sides(g), _relation_sides(r)
        if ("=" in g) != ("=" in r):
            return None  # one side is an equation: the after-"=" rule handles it
        if g_rel and r_rel:
            return _equations_equal(
                (_parse(g_rel[0]), _parse(g_rel[1])), (_parse(r_rel[0]), _parse(r_rel[1]))
            )
        if "=" in g or "=" in r:
            return None
        return _expressions_equal(_parse(g), _parse(r))
    except Exception:  # noqa: BLE001 - the parser raises many kinds on malformed LaTeX: unparsed
        return None


def math_verify_equivalent(given: str, reference: str) -> bool | None:
    """math-verify's own parse and verify; its signal-based timeouts only work on the main
    thread, so elsewhere they are switched off."""
    try:
        from math_verify import LatexExtractionConfig, parse, verify
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    main = threading.current_thread() is threading.main_thread()
    timeout = 2 if main else None
    config = [LatexExtractionConfig()]
    try:
        gold = parse(f"${basic(reference)}$", extraction_config=config, parsing_timeout=timeout)
        pred = parse(f"${basic(given)}$", extraction_config=config, parsing_timeout=timeout)
        if not gold or not pred or all(isinstance(x, str) for x in gold):
            return None
        return bool(verify(gold, pred, timeout_seconds=timeout))
    except Exception:  # noqa: BLE001 - math-verify failures of any kind mean "undecided"
        return None


def symbolic_match(given: str, reference: str) -> bool | None:
    verdict = sympy_equivalent(given, reference)
    if verdict is None:
        verdict = math_verify_equivalent(given, reference)
    return verdict
