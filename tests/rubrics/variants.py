"""Labelled variants of the HiPhO reference answers, generated at test time (never stored).

Each variant is labelled by construction from the definitions the grader is meant to follow,
never from what the grader says:

* equivalent: the same number written another way or moved by at most 0.1 % (the tolerance is
  2e-3); the same expression after an algebraic identity (terms reordered, a fraction as a
  slash, a root as a power, x = 3x/3, -(-x), a fraction coefficient or pi as a 4-5 digit
  decimal); the same equation with its sides swapped, scaled or moved; the same inequality
  with its sides swapped; a bare quantity name added, removed or respelled; the same choice
  letter written another way;
* wrong: a number off by 0.5 % or more, ten times, or of the other sign; an exponent changed,
  a factor added, a sign or term changed, a fraction inverted, a function swapped, a quantity
  letter replaced by another (its other case included: M is not m), a power on the left-hand
  side, another quantity named on the left, an inequality turned round, another choice.

Variants whose construction does not apply to a reference (no fraction to invert, ...) are
simply not produced. Nothing here imports the grader.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Case:
    kind: str
    correct: bool
    given: str
    reference: str  # the reference content as stored (the grader's input)
    unit: str | None
    source: str


# --- reading the references (plain JSON, independent of rubrics.exam) ---------------------


def _box_content(answer: str) -> str:
    m = re.search(r"\\boxed\s*\{", answer)
    if not m:
        return answer.strip()
    depth, i = 1, m.end()
    while i < len(answer) and depth:
        depth += {"{": 1, "}": -1}.get(answer[i], 0)
        i += 1
    return answer[m.end() : i - 1 if depth == 0 else len(answer)].strip()


def references(folder: Path) -> Iterator[tuple[str, str, str | None, str]]:
    """(source, reference content, unit, answer type) for every written reference answer."""
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for k, item in enumerate(data[1:], start=1):
            answers = item.get("answer") or []
            units = item.get("unit") or []
            types = item.get("answer_type") or []
            for i, answer in enumerate(answers):
                content = _box_content(str(answer))
                if not content:
                    continue
                unit = units[i] if i < len(units) and units[i] else None
                kind = types[i] if i < len(types) else ""
                yield f"{path.stem}#{k}.{i}", content, unit, kind


# --- LaTeX helpers ---------------------------------------------------------------------------

GREEK = (
    "alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|kappa|lambda|mu|nu|xi|rho|"
    "sigma|tau|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Sigma|Phi|Psi|Omega"
)
# a bare quantity name: letter or Greek letter, optional accent, subscripts, primes, a star
_NAME = re.compile(
    rf"\s*(?:\\(?:bar|hat|dot|ddot|tilde|vec)\{{(?:[A-Za-z]|\\(?:{GREEK}))\}}|[A-Za-z]|\\(?:{GREEK})(?![A-Za-z]))"
    r"(?:_\{(?:[^{}]|\{[^{}]*\})*\}|_[A-Za-z0-9]|'|\^\{?\\star\}?|\^\{?\*\}?)*\s*"
)
_UNSUPPORTED = re.compile(
    r"\\(?:pm|mp|begin|int|sum|prod|lim|text\{[^}]*\s|ll|gg|quad|cases)|\\\\|;"
)


def strip_math(text: str) -> str:
    s = text.strip()
    s = re.sub(r"^\$+|\$+$", "", s).strip()
    return s.rstrip(".").strip()


def is_name(text: str) -> bool:
    return _NAME.fullmatch(text) is not None


def _opening(s: str, i: int) -> bool:
    return s[i] in "{([" or s.startswith("\\left", i)


def top_level_terms(expr: str) -> list[tuple[str, str]] | None:
    """[(sign, term), ...] split at + and - outside every bracket; None when unbalanced."""
    terms: list[tuple[str, str]] = []
    depth, start, sign = 0, 0, "+"
    s = expr.strip()
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
            if depth < 0:
                return None
        elif ch in "+-" and depth == 0:
            before = s[:i].rstrip()
            if not before:
                sign = "-" if ch == "-" else "+"
                start = i + 1
            elif before[-1] not in "^_{(=*/" and not re.search(
                r"\\(?:times|cdot)$|\d[eE]$", before
            ):
                terms.append((sign, s[start:i].strip()))
                sign, start = ch, i + 1
        i += 1
    if depth != 0:
        return None
    terms.append((sign, s[start:].strip()))
    return terms if all(t for _, t in terms) else None


def join_terms(terms: list[tuple[str, str]]) -> str:
    out = ""
    for k, (sign, term) in enumerate(terms):
        if k == 0:
            out = ("-" if sign == "-" else "") + term
        else:
            out += f" {sign} {term}"
    return out


def _braced(s: str, i: int) -> int | None:
    """Index just past the brace group opening at s[i] == '{'."""
    if i >= len(s) or s[i] != "{":
        return None
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return j + 1
    return None


def first_frac(s: str) -> tuple[int, int, str, str] | None:
    m = re.search(r"\\[dt]?frac\s*(?=\{)", s)
    if not m:
        return None
    a_end = _braced(s, m.end())
    if a_end is None:
        return None
    b_end = _braced(s, a_end)
    if b_end is None:
        return None
    return m.start(), b_end, s[m.end() + 1 : a_end - 1], s[a_end + 1 : b_end - 1]


def first_sqrt(s: str) -> tuple[int, int, str] | None:
    m = re.search(r"\\sqrt\s*(?=\{)", s)
    if not m:
        return None
    end = _braced(s, m.end())
    return None if end is None else (m.start(), end, s[m.end() + 1 : end - 1])


_EXCLUDED_LETTERS = set("edi")  # Euler's number, differentials, the imaginary unit


def variable_letters(s: str) -> list[str]:
    """Single-letter quantities (not inside a command name, \\mathrm or \\text)."""
    plain = re.sub(r"\\(?:mathrm|text|operatorname|mathit)\s*\{[^{}]*\}", " ", s)
    plain = re.sub(r"\\[A-Za-z]+", " ", plain)
    found = re.findall(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])", plain)
    return list(dict.fromkeys(c for c in found if c not in _EXCLUDED_LETTERS))


def replace_letter(s: str, old: str, new: str) -> str:
    """Every occurrence of the quantity letter ``old`` (outside commands and \\mathrm)."""
    out, i = [], 0
    protected = re.compile(r"\\(?:mathrm|text|operatorname|mathit)\s*\{[^{}]*\}|\\[A-Za-z]+")
    while i < len(s):
        m = protected.match(s, i)
        if m:
            out.append(m.group(0))
            i = m.end()
            continue
        ch = s[i]
        prev = s[i - 1] if i else " "
        nxt = s[i + 1] if i + 1 < len(s) else " "
        out.append(new if ch == old and not prev.isalpha() and not nxt.isalpha() else ch)
        i += 1
    return "".join(out)


# --- numbers -------------------------------------------------------------------------------

_NUM = re.compile(
    r"^(?P<m>[-+]?\d+(?:\.\d+)?)(?:\s*(?:\\times|\\cdot)\s*10\s*\^\s*\{?\s*(?P<e>[-+]?\d+)\s*\}?)?$"
)


def parse_plain_number(s: str) -> tuple[float, int] | None:
    """(value, significant digits) of a bare number such as 5.31 \\times 10^{-11}."""
    m = _NUM.match(s.strip())
    if not m:
        return None
    mant = m.group("m").lstrip("+-")
    digits = len(mant.replace(".", "").lstrip("0")) or 1
    value = float(m.group("m")) * 10.0 ** int(m.group("e") or 0)
    return value, max(digits, 2)


def sci(value: float, digits: int) -> str:
    mant, exp = f"{value:.{max(digits - 1, 1)}e}".split("e")
    return f"{mant} \\times 10^{{{int(exp)}}}"


def enote(value: float, digits: int) -> str:
    return f"{value:.{max(digits - 1, 1)}e}"


def plain(value: float, digits: int) -> str:
    return f"{value:.{digits}g}" if 1e-3 <= abs(value) < 1e6 else sci(value, digits)


# --- generation -----------------------------------------------------------------------------

FRESH_NAMES = (r"\xi", r"\zeta", r"\chi", "Q")
FACTORS = ("2", r"\frac{1}{2}", r"\pi", "3", r"\frac{4}{3}")
FUNCTION_SWAPS = {
    r"\sin": r"\cos",
    r"\cos": r"\sin",
    r"\tan": r"\cot",
    r"\cot": r"\tan",
    r"\sinh": r"\cosh",
    r"\cosh": r"\sinh",
    r"\tanh": r"\coth",
    r"\exp": r"\ln",
    r"\ln": r"\exp",
}


def _numeric_cases(
    body: str, lhs: str | None, value: float, digits: int
) -> Iterator[tuple[str, bool, str]]:
    pre = f"{lhs} = " if lhs else ""
    yield "num_scientific", True, pre + sci(value, digits)
    yield "num_e_notation", True, pre + enote(value, digits)
    yield "num_plain", True, pre + plain(value, digits + 1)
    yield "num_within_0.1pct", True, pre + plain(value * 1.0008, digits + 3)
    yield "num_within_0.1pct", True, pre + sci(value * 0.9993, digits + 3)
    if lhs:
        yield "lhs_removed", True, body
    else:
        yield "lhs_added", True, f"{FRESH_NAMES[0]} = {body}"
    if value == 0:
        return  # zero times anything is zero: no wrong number to make by scaling
    yield "num_off_0.5pct", False, pre + plain(value * 1.005, digits + 3)
    yield "num_off_2pct", False, pre + sci(value * 0.98, digits + 2)
    yield "num_off_10pct", False, pre + plain(value * 1.1, digits + 2)
    yield "num_times_10", False, pre + sci(value * 10, digits)
    yield "num_sign", False, pre + plain(-value, digits + 1)


def _interval_cases(lo: float, hi: float) -> Iterator[tuple[str, bool, str]]:
    yield "interval_inside", True, plain((lo + hi) / 2, 6)
    yield "interval_inside", True, sci(lo + 0.25 * (hi - lo), 6)
    width = max(hi - lo, 1e-300)
    yield "interval_outside", False, plain(hi + 0.5 * width + 0.02 * abs(hi), 6)
    yield "interval_outside", False, sci(lo - 0.5 * width - 0.02 * abs(lo), 6)


def _expression_cases(body: str) -> Iterator[tuple[str, bool, str]]:
    """Equivalent and wrong rewrites of an expression (no '=')."""
    terms = top_level_terms(body)
    if terms and len(terms) >= 2:
        yield "sym_terms_reordered", True, join_terms(terms[1:] + terms[:1])
        flipped = terms[:-1] + [("-" if terms[-1][0] == "+" else "+", terms[-1][1])]
        yield "wrong_sign", False, join_terms(flipped)
        yield "wrong_term_dropped", False, join_terms(terms[:-1])
    else:
        yield "wrong_sign", False, rf"-\left({body}\right)"
    frac = first_frac(body)
    if frac:
        start, end, num, den = frac
        derivative = re.match(r"\s*(?:d|\\partial)", num) and re.match(r"\s*(?:d|\\partial)", den)
        if not derivative:  # dp/dz is a derivative, not a quotient of d p and d z
            yield (
                "sym_fraction_as_slash",
                True,
                body[:start] + rf"\left(\left({num}\right)/\left({den}\right)\right)" + body[end:],
            )
        if re.sub(r"\s", "", num) != re.sub(r"\s", "", den):
            yield (
                "wrong_fraction_inverted",
                False,
                body[:start] + rf"\frac{{{den}}}{{{num}}}" + body[end:],
            )
        if (
            re.fullmatch(r"\s*\d+\s*", num)
            and re.fullmatch(r"\s*[1-9]\d*\s*", den)
            and int(num) % int(den)
        ):
            decimal = f"{int(num) / int(den):.5g}"
            yield "sym_decimal_coefficient", True, body[:start] + decimal + " " + body[end:]
    root = first_sqrt(body)
    if root:
        start, end, inner = root
        yield (
            "sym_root_as_power",
            True,
            body[:start] + rf"\left({inner}\right)^{{1/2}}" + body[end:],
        )
        yield "wrong_function", False, body[:start] + rf"\sqrt[3]{{{inner}}}" + body[end:]
    for fn, other in FUNCTION_SWAPS.items():
        m = re.search(re.escape(fn) + r"(?![A-Za-z])", body)
        if m:
            yield "wrong_function", False, body[: m.start()] + other + body[m.end() :]
            break
    if re.search(r"\\pi(?![A-Za-z])", body):
        yield "sym_pi_as_decimal", True, re.sub(r"\\pi(?![A-Za-z])", r" 3.14159 ", body)
    yield "sym_identity_scaled", True, rf"\frac{{3\left({body}\right)}}{{3}}"
    yield "sym_double_negation", True, rf"-\left(-\left({body}\right)\right)"
    yield "sym_typeset", True, body.replace(r"\frac", r"\dfrac").replace(" ", r" \, ")
    power = re.search(r"\^\s*\{\s*(-?\d+)\s*\}|\^\s*(\d)", body)
    if power:
        n = int(power.group(1) or power.group(2))
        changed = n + 1 if n + 1 != 0 else n + 2
        yield "wrong_power", False, body[: power.start()] + f"^{{{changed}}}" + body[power.end() :]
    else:
        yield "wrong_power", False, rf"\left({body}\right)^{{2}}"
    zero = re.fullmatch(r"\s*[-+]?0*\.?0*\s*", body) is not None
    for k, factor in enumerate(FACTORS[:2] if not zero else ()):  # 2 x 0 is still 0
        yield (
            "wrong_factor",
            False,
            f"{factor} \\left({body}\\right)" if k == 0 else rf"\frac{{{body}}}{{2}}",
        )
    letters = variable_letters(body)
    if letters:
        old = letters[0]
        other_case = old.swapcase()
        if other_case not in letters and other_case not in _EXCLUDED_LETTERS:
            yield "wrong_letter_case", False, replace_letter(body, old, other_case)
        fresh = next(c for c in "qwukjyzQWUKJYZ" if c not in letters and c != old.swapcase())
        yield "wrong_letter", False, replace_letter(body, letters[-1], fresh)


_INEQ = re.compile(r"\\(?:geq|leq|ge|le)(?![A-Za-z])|[<>]")
_CHOICE = re.compile(r"^\(?([A-J])\)?$")


def _respell(name: str) -> str | None:
    """Another spelling of the same name: braces around a one-token subscript added or removed,
    a roman subscript written with \\mathrm."""
    if re.search(r"_\{\\mathrm\{([A-Za-z]+)\}\}", name):
        return re.sub(r"_\{\\mathrm\{([A-Za-z]+)\}\}", r"_{\1}", name)
    if re.search(r"_([A-Za-z0-9])(?![A-Za-z0-9}])", name):
        return re.sub(r"_([A-Za-z0-9])", r"_{\1}", name, count=1)
    if re.search(r"_\{([A-Za-z0-9])\}", name):
        return re.sub(r"_\{([A-Za-z0-9])\}", r"_\1", name, count=1)
    return None


def _other_name(name: str) -> str:
    """A different quantity's name: another subscript, or a subscript added."""
    if re.search(r"_\{?[0-9]\}?", name):
        return re.sub(
            r"_\{?([0-9])\}?", lambda m: "_{" + str((int(m.group(1)) + 1) % 10) + "}", name, count=1
        )
    return name.strip() + "_{2}"


def _not_algebra(body: str) -> bool:
    """Percentages, degrees and labelled prose ("Angular point 1: 0") are not expressions to
    rewrite algebraically."""
    if re.search(r"%|°|\\circ|:", body):
        return True
    plain = re.sub(r"\\[A-Za-z]+", " ", body)
    return re.search(r"[A-Za-z]{4,}", plain) is not None


def cases_for(reference: str, unit: str | None, source: str) -> Iterator[Case]:
    text = strip_math(reference)
    if (
        not text
        or _UNSUPPORTED.search(text)
        or "$" in text
        or re.search(r"\b(?:for|if|when|where)\b", text)
    ):
        return
    if re.search(r"[^\x00-\x7f°]", text):
        return  # prose answers (some references are sentences in Chinese): the judge's domain
    text = re.sub(r"\\(?:approx|simeq)(?![A-Za-z])", "=", text)
    made: list[tuple[str, bool, str]] = []
    choice = _CHOICE.match(text)
    if choice:
        letter = choice.group(1)
        made += [
            ("choice_rewritten", True, f"({letter})"),
            ("choice_rewritten", True, rf"\text{{{letter}}}"),
            ("choice_other", False, "ABCDEFGHIJ"[("ABCDEFGHIJ".index(letter) + 1) % 10]),
            ("choice_other", False, f"({'ABCDEFGHIJ'[('ABCDEFGHIJ'.index(letter) + 3) % 10]})"),
        ]
    elif _INEQ.search(text):
        parts = _INEQ.split(text)
        ops = _INEQ.findall(text)
        if len(ops) == 1 and all(p.strip() for p in parts):
            lhs, rhs, op = parts[0].strip(), parts[1].strip(), ops[0]
            flip = {
                "<": ">",
                ">": "<",
                r"\leq": r"\geq",
                r"\geq": r"\leq",
                r"\le": r"\ge",
                r"\ge": r"\le",
            }[op]
            made += [
                ("ineq_sides_swapped", True, f"{rhs} {flip} {lhs}"),
                ("ineq_scaled", True, rf"2\left({lhs}\right) {op} 2\left({rhs}\right)"),
                ("ineq_turned_round", False, f"{lhs} {flip} {rhs}"),
                ("ineq_factor", False, rf"{lhs} {op} 2\left({rhs}\right)"),
            ]
    elif re.fullmatch(r"\[\s*[^,\[\]]+,\s*[^,\[\]]+\]", text):
        lo_s, hi_s = text[1:-1].split(",")
        lo, hi = parse_plain_number(lo_s.strip()), parse_plain_number(hi_s.strip())
        if lo and hi and lo[0] < hi[0]:
            made += list(_interval_cases(lo[0], hi[0]))
    else:
        sides = text.split("=")
        if len(sides) > 2 or "," in text:
            return
        lhs = sides[0].strip() if len(sides) == 2 else None
        body = sides[-1].strip()
        named = lhs is not None and is_name(lhs)
        number = parse_plain_number(body)
        if number and (lhs is None or named):
            made += list(_numeric_cases(body, lhs, *number))
        elif (lhs is None or named) and not _not_algebra(body):
            made += list(_expression_cases(body))
            made = [
                (
                    k,
                    c,
                    f"{lhs} = {g}"
                    if lhs and k.startswith(("sym_", "wrong_")) and k != "lhs_removed"
                    else g,
                )
                for k, c, g in made
            ]
            if lhs:
                made.append(("lhs_removed", True, body))
            else:
                fresh = next(n for n in FRESH_NAMES if n not in body)
                made.append(("lhs_added", True, f"{fresh} = {body}"))
                made.append(("wrong_lhs_power", False, f"{fresh}^{{2}} = {body}"))
        if lhs is not None:  # equations (named or not)
            made += [
                ("eq_sides_swapped", True, f"{body} = {lhs}"),
                ("eq_scaled", True, rf"2\left({lhs}\right) = 2\left({body}\right)"),
                ("eq_moved", True, rf"{lhs} - \left({body}\right) = 0"),
            ]
            if not re.fullmatch(r"\s*[-+]?0*\.?0*\s*", body):  # 2 x 0 is still 0
                made.append(("eq_wrong_factor", False, rf"{lhs} = 2\left({body}\right)"))
            if named:
                respelled = _respell(lhs)
                if respelled:
                    made.append(("lhs_respelled", True, f"{respelled} = {body}"))
                made.append(("wrong_lhs_power", False, f"{lhs.strip()}^{{2}} = {body}"))
                made.append(("wrong_lhs_other_name", False, f"{_other_name(lhs)} = {body}"))
    for kind, correct, given in made:
        yield Case(kind, correct, given, reference, unit, source)


def generate(folder: Path) -> list[Case]:
    out: list[Case] = []
    for source, reference, unit, _type in references(folder):
        out.extend(cases_for(reference, unit, source))
    return out
