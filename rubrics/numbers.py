"""Numbers, scientific notation and intervals in LaTeX answers, and the numeric tolerance rule.

Relative tolerance 2e-3 with a 1.01 margin (the published HiPhO rule). When the reference is
written in scientific notation both numbers are compared as mantissa and exponent: exponents
equal, mantissas within the tolerance.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from rubrics.normalize import (
    basic,
    is_unit_like,
    strip_qualifier,
    unit_tokens,
    unwrap_text,
)

REL_TOL = 2e-3 * 1.01
_ABS_ZERO = 1e-12

_MANT = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_EXP = r"[-+]?\d+"
_SCI_TIMES = re.compile(
    rf"^(?P<m>{_MANT})\s*(?:\\times|\\cdot|x|\*)\s*10\s*\^\s*(?:\{{\s*(?P<e1>{_EXP})\s*\}}|(?P<e2>{_EXP}))"
)
_SCI_E = re.compile(rf"^(?P<m>{_MANT})[eE](?P<e>{_EXP})(?![A-Za-z])")
_POW10 = re.compile(
    rf"^(?P<s>[-+]?)10\s*\^\s*(?:\{{\s*(?P<e1>{_EXP}(?:\.\d+)?)\s*\}}|(?P<e2>{_EXP}))"
)  # 10^{10.5}
_FRAC = re.compile(
    rf"^(?P<s>[-+]?)\\frac\s*\{{\s*(?P<a>{_MANT})\s*\}}\s*\{{\s*(?P<b>{_MANT})\s*\}}"
)
_SLASH = re.compile(rf"^(?P<a>{_MANT})\s*/\s*(?P<b>{_MANT})(?![\d.])")
_PLAIN = re.compile(rf"^{_MANT}")


@dataclass(frozen=True)
class Number:
    value: float
    sci: bool = False  # written as mantissa x 10^exponent


@dataclass(frozen=True)
class Interval:
    lo: float
    hi: float


def _clean(text: str) -> str:
    s = unwrap_text(basic(text))
    s = strip_qualifier(s)
    s = s.replace("{,}", "")  # 1{,}000
    return s.strip()


def _leading_number(s: str) -> tuple[Number, str] | None:
    """A number at the start of ``s`` and what follows it."""
    s = s.strip()
    for pattern in (_SCI_TIMES, _SCI_E):
        m = pattern.match(s)
        if m:
            groups = m.groupdict()
            exp = groups.get("e") or groups.get("e1") or groups.get("e2") or "0"
            return Number(float(m.group("m")) * 10.0 ** int(exp), sci=True), s[m.end() :]
    m = _POW10.match(s)
    if m:
        exp = float(m.group("e1") or m.group("e2"))
        return Number((-1.0 if m.group("s") == "-" else 1.0) * 10.0**exp, sci=True), s[m.end() :]
    m = _FRAC.match(s)
    if m and float(m.group("b")) != 0:
        value = float(m.group("a")) / float(m.group("b"))
        return Number(-value if m.group("s") == "-" else value), s[m.end() :]
    m = _SLASH.match(s)
    if m and float(m.group("b")) != 0:
        return Number(float(m.group("a")) / float(m.group("b"))), s[m.end() :]
    m = _PLAIN.match(s)
    if m:
        return Number(float(m.group(0))), s[m.end() :]
    return None


def parse_number(text: str, unit: str | None = None) -> Number | None:
    """A single number, possibly followed by a unit; None when the text is anything else."""
    extra = unit_tokens(unit)
    s = _clean(text)
    found = _leading_number(s)
    if found is None:
        return None
    number, rest = found
    return number if is_unit_like(rest, extra) else None


_INTERVAL = re.compile(r"^[\[(](?P<a>[^,;\[\]()]+)[,;](?P<b>[^,;\[\]()]+)[\])](?P<rest>.*)$")


def parse_interval(text: str, unit: str | None = None) -> Interval | None:
    """``[4.96, 4.97]`` or ``[1.0 \\times 10^{-3}, 4.0 \\times 10^{-3}]`` (with optional unit)."""
    s = _clean(text)
    m = _INTERVAL.match(s)
    if not m or not is_unit_like(m.group("rest"), unit_tokens(unit)):
        return None
    a, b = parse_number(m.group("a"), unit), parse_number(m.group("b"), unit)
    if a is None or b is None:
        return None
    return Interval(min(a.value, b.value), max(a.value, b.value))


def _mantissa_exponent(x: float) -> tuple[float, int]:
    exp = math.floor(math.log10(abs(x)))
    mant = x / 10.0**exp
    if abs(mant) >= 10 - 1e-12:  # float noise at the decade edge
        mant, exp = mant / 10, exp + 1
    return mant, exp


def numbers_close(given: Number, reference: Number) -> bool:
    a, b = given.value, reference.value
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    if b == 0 or a == 0:
        return abs(a - b) <= _ABS_ZERO
    if reference.sci:
        (ma, ea), (mb, eb) = _mantissa_exponent(a), _mantissa_exponent(b)
        if ea == eb:
            return abs(ma - mb) <= REL_TOL * abs(mb)
        # 9.999e2 against 1.000e3 differ in exponent only by rounding; compare values then
        return abs(ea - eb) == 1 and abs(a - b) <= REL_TOL * abs(b)
    return abs(a - b) <= REL_TOL * abs(b)


def in_interval(x: float, interval: Interval) -> bool:
    lo = interval.lo - REL_TOL * abs(interval.lo)
    hi = interval.hi + REL_TOL * abs(interval.hi)
    return lo <= x <= hi


def numeric_match(given: str, reference: str, unit: str | None = None) -> bool | None:
    """True/False when the reference is a number or an interval; None when it is neither."""
    ref_interval = parse_interval(reference, unit)
    if ref_interval is not None:
        g_interval = parse_interval(given, unit)
        if g_interval is not None:
            return numbers_close(Number(g_interval.lo), Number(ref_interval.lo)) and numbers_close(
                Number(g_interval.hi), Number(ref_interval.hi)
            )
        g = parse_number(given, unit)
        return None if g is None else in_interval(g.value, ref_interval)
    ref = parse_number(reference, unit)
    if ref is None:
        return None
    g = parse_number(given, unit)
    if g is None:
        return None
    return numbers_close(g, ref)
