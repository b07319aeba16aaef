"""Left-hand sides: when ``v_1 = ...`` may be read as its right-hand side alone.

The rule (issue 11, defect 2):

* the left-hand side is canonicalised first: ``\\text``/``\\mathrm`` wrappers unwrapped, spaces
  and single-token braces dropped (``T_{\\mathrm{E}}`` -> ``T_E``), ``^{\\star}``/``^{*}`` read
  as ``^*``, primes unified, and an argument list ``x(t)`` read as ``x``;
* it is stripped only when it is a bare quantity name: one letter or Greek command, an optional
  accent around it, then any subscripts, primes and ``*``. A power (``\\omega^2``), a function
  (``\\sin(Kd)``), a product (``\\delta x``) or a fraction is not a name, and such an equation
  is only ever compared as an equation;
* when both answers carry names and the names differ, the string and numeric rules must not
  match (the caller enforces it with :func:`names_conflict`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rubrics.normalize import basic, strip_qualifier, unwrap_text

GREEK = frozenset(
    {
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "omicron",
        "pi",
        "rho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Pi",
        "Sigma",
        "Upsilon",
        "Phi",
        "Psi",
        "Omega",
        "ell",
        "hbar",
        "varrho",
        "varsigma",
        "varpi",
        "digamma",
    }
)
ACCENTS = frozenset(
    {
        "vec",
        "hat",
        "dot",
        "ddot",
        "bar",
        "tilde",
        "overline",
        "widehat",
        "widetilde",
        "mathbf",
        "boldsymbol",
        "mathcal",
        "overrightarrow",
        "bm",
    }
)
# relations an answer may state; inequalities are compared apart (rubrics.inequality)
INEQUALITY = re.compile(r"\\(?:leq|geq|le|ge|ll|gg|lesssim|gtrsim|neq|ne)(?![A-Za-z])|[<>]")

_BASE = r"(?:[A-Za-z]|\\(?:" + "|".join(sorted(GREEK, key=len, reverse=True)) + r")(?![A-Za-z]))"
_ACCENTED = r"\\(?:" + "|".join(sorted(ACCENTS, key=len, reverse=True)) + r")\{" + _BASE + r"\}"
_BRACED = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_DECORATION = r"(?:_(?:" + _BRACED + r"|[A-Za-z0-9]|\\[A-Za-z]+)|'|\^\*)"
_BARE_NAME = re.compile(rf"(?:{_ACCENTED}|{_BASE})(?:{_DECORATION})*")
_ARG = r"(?:[A-Za-z]|\\[A-Za-z]+)(?:_[A-Za-z0-9])?"
_ARGS = re.compile(rf"\({_ARG}(?:,{_ARG})*\)$")  # spaces are gone by then


def canonical_name(text: str) -> str:
    """The canonical spelling of a left-hand side (whether or not it is a bare name)."""
    s = unwrap_text(basic(text))
    s = re.sub(r"\s+", "", s)
    s = re.sub(r"\^\{?(?:\\star|\\ast|\*)\}?", "^*", s)
    s = re.sub(
        r"\^\{?(?:\\prime|')+\}?",
        lambda m: "'" * max(1, m.group(0).count("prime") + m.group(0).count("'")),
        s,
    )
    prev = None
    while prev != s:  # single-token braces, innermost first: _{{E}} -> _{E} -> _E
        prev = s
        s = re.sub(r"(?<![A-Za-z])\{([A-Za-z0-9]|\\[A-Za-z]+)\}", r"\1", s)
    return _ARGS.sub("", s) if _ARGS.search(s) and not s.startswith("(") else s


def is_bare_name(text: str) -> bool:
    """True for ``v``, ``v_{c,m}``, ``\\bar{s}``, ``x(t)``, ``M_1'``, ``T_{\\mathrm{E}}``,
    ``W^{\\star}``; False for ``\\omega^2``, ``\\sin(Kd)``, ``\\delta x``, ``|\\tau|``."""
    name = canonical_name(text)
    return bool(name) and _BARE_NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class Form:
    """One answer split at its ``=`` signs.

    ``name``     the canonical left-hand side when it is a bare quantity name, else None
    ``bodies``   what may be compared as the answer's value: the whole text when there is no
                 ``=``; the parts after a bare name (``v = X = 4.4`` -> X, 4.4); none for an
                 equation such as ``m \\ddot z + kz = 0`` whose right-hand side alone means nothing
    ``sides``    (lhs, rhs) of a single equation, for the symbolic equation rule; else None
    ``chain``    True when the text has more than one ``=``
    """

    text: str
    name: str | None
    bodies: tuple[str, ...]
    sides: tuple[str, str] | None
    chain: bool

    @property
    def final(self) -> str | None:
        return self.bodies[-1] if self.bodies else None


def split_form(text: str) -> Form:
    s = strip_qualifier(basic(text)).replace("\\approx", "=")
    parts = [p.strip() for p in s.split("=")]
    parts = [
        p for i, p in enumerate(parts) if p or i == 0
    ]  # "\beta = = X" (a typo in one reference)
    if len(parts) == 1:
        return Form(s, None, (s,), None, False)
    sides = (parts[0], parts[-1]) if len(parts) == 2 else None
    if parts[0] and is_bare_name(parts[0]):
        return Form(
            s, canonical_name(parts[0]), tuple(p for p in parts[1:] if p), sides, len(parts) > 2
        )
    return Form(s, None, (), sides, len(parts) > 2)


def names_conflict(a: Form, b: Form) -> bool:
    return a.name is not None and b.name is not None and a.name != b.name


def strip_bare_lhs(text: str) -> str:
    """``v_1 = \\alpha c`` -> ``\\alpha c`` when the left-hand side is a bare name and the
    text holds one ``=``; the text unchanged otherwise."""
    parts = text.split("=")
    if len(parts) == 2 and parts[0].strip() and is_bare_name(parts[0]):
        return parts[1].strip()
    return text
