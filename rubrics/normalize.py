"""Text normalisation of LaTeX answers, and unit recognition.

Two answers that differ only in typesetting (``\\dfrac`` vs ``\\frac``, ``\\left(``, spacing,
``$`` delimiters, ``x^{2}`` vs ``x^2``, a trailing unit) normalise to the same string.
"""

from __future__ import annotations

import re

_DELIMS = re.compile(r"^\s*(?:\$\$|\$|\\\(|\\\[)\s*|\s*(?:\$\$|\$|\\\)|\\\])\s*$")
_SIZING = re.compile(
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg)(?![a-zA-Z])"
)
_SPACING = re.compile(r"\\(?:,|;|:|!|\s|quad(?![a-zA-Z])|qquad(?![a-zA-Z]))|~")
_STYLE = re.compile(r"\\(?:displaystyle|textstyle|limits)(?![a-zA-Z])")
_WRAPPER = re.compile(
    r"\\(?:text|textrm|textit|textbf|mathrm|mathit|mathbf|operatorname|rm|mbox|mathsf)\s*\{([^{}]*)\}"
)
_SYNONYMS = [
    (re.compile(r"\\[dt]frac(?![a-zA-Z])"), r"\\frac"),
    (re.compile(r"\\varepsilon(?![a-zA-Z])"), r"\\epsilon"),
    (re.compile(r"\\vartheta(?![a-zA-Z])"), r"\\theta"),
    (re.compile(r"\\varphi(?![a-zA-Z])"), r"\\phi"),
    (re.compile(r"\\(?:le|leqslant)(?![a-zA-Z])"), r"\\leq"),
    (re.compile(r"\\(?:ge|geqslant)(?![a-zA-Z])"), r"\\geq"),
    (re.compile(r"\\(?:approx|simeq|cong)(?![a-zA-Z])"), r"\\approx"),
    (re.compile(r"\\(?:times)(?![a-zA-Z])"), r"\\times"),
    (
        re.compile(
            r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ(?![a-zA-Z])|\\degree(?![a-zA-Z])|\^\s*\{\s*o\s*\}"
        ),
        "°",
    ),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\prime(?![a-zA-Z])"), "'"),
]
_UNICODE = str.maketrans({"−": "-", "×": "\\times ", "·": "\\cdot ", "–": "-", "µ": "μ", "＝": "="})
# A trailing qualifier a reference sometimes carries ("... for $v_{r,3}$", "... if $r > R_b$").
_QUALIFIER = re.compile(r"[\s,;]+(?:for|when|if|where|with)\s.*$", re.DOTALL)

SI_PREFIXES = (
    "y",
    "z",
    "a",
    "f",
    "p",
    "n",
    "u",
    "μ",
    "m",
    "c",
    "d",
    "da",
    "h",
    "k",
    "M",
    "G",
    "T",
    "P",
    "E",
)
BASE_UNITS = frozenset(
    {
        "m",
        "s",
        "g",
        "K",
        "N",
        "J",
        "W",
        "Pa",
        "V",
        "A",
        "C",
        "T",
        "Hz",
        "eV",
        "mol",
        "rad",
        "sr",
        "Ω",
        "ohm",
        "ohms",
        "atm",
        "bar",
        "L",
        "l",
        "min",
        "h",
        "hr",
        "hour",
        "hours",
        "yr",
        "year",
        "years",
        "day",
        "days",
        "deg",
        "degree",
        "degrees",
        "°",
        "%",
        "F",
        "H",
        "Wb",
        "cd",
        "lm",
        "lx",
        "au",
        "AU",
        "ly",
        "pc",
        "dB",
        "cal",
        "Torr",
        "mmHg",
        "rpm",
        "Bq",
        "Gy",
        "Sv",
        "S",
        "G",
        "u",
        "amu",
        "Da",
        "sec",
        "second",
        "seconds",
        "meter",
        "meters",
        "metre",
        "metres",
        "kelvin",
        "joule",
        "joules",
        "newton",
        "newtons",
        "watt",
        "watts",
        "volt",
        "volts",
        "percent",
        "°C",
    }
)
_GREEK_UNIT_TOKENS = {"\\mu": "μ", "\\Omega": "Ω", "\\circ": "°", "\\ohm": "Ω", "\\AA": "Å"}


def unwrap_text(s: str) -> str:
    """``\\text{abc}`` -> ``abc`` (innermost first, repeatedly)."""
    prev = None
    while prev != s:
        prev = s
        s = _WRAPPER.sub(lambda m: f" {m.group(1)} ", s)
    return s


def basic(s: str) -> str:
    """Typesetting clean-up shared by every rule (keeps spaces, keeps meaning)."""
    s = s.translate(_UNICODE).strip()
    prev = None
    while prev != s:  # "$$ x $$", "$x$."
        prev = s
        s = _DELIMS.sub("", s).strip().rstrip(".").strip()
    s = s.replace("$", " ")
    s = _SIZING.sub("", s)
    s = _SPACING.sub(" ", s)
    s = _STYLE.sub("", s)
    for pattern, repl in _SYNONYMS:
        s = pattern.sub(repl, s)
    s = re.sub(r"\\cdot\s*10\s*\^", r"\\times 10^", s)
    # \dot\phi -> \dot{\phi}: one spelling for accents
    s = re.sub(
        r"\\(dot|ddot|hat|vec|bar|tilde)\s*(\\[A-Za-z]+|[A-Za-z])(?![A-Za-z])", r"\\\1{\2}", s
    )
    s = re.sub(r"\s+", " ", s).strip()
    return s


def strip_qualifier(s: str) -> str:
    return _QUALIFIER.sub("", s).strip()


def is_unit_token(token: str, extra: frozenset[str] = frozenset()) -> bool:
    token = _GREEK_UNIT_TOKENS.get(token, token)
    if token in BASE_UNITS or token in extra:
        return True
    for prefix in SI_PREFIXES:
        if (
            token.startswith(prefix)
            and token[len(prefix) :] in BASE_UNITS
            and len(token) > len(prefix)
        ):
            return True
    return token in {"μ"}  # "\mu m" splits into a prefix token and a unit token


def unit_tokens(unit: str | None) -> frozenset[str]:
    """Word tokens of a problem's declared unit (e.g. "$\\mathrm{Pa} \\cdot s$" -> Pa, s)."""
    if not unit:
        return frozenset()
    text = unwrap_text(basic(unit))
    return frozenset(_GREEK_UNIT_TOKENS.get(t, t) for t in re.findall(r"\\?[A-Za-zμΩ°%Å]+", text))


def is_unit_like(rest: str, extra: frozenset[str] = frozenset()) -> bool:
    """True when ``rest`` (what follows a number) is only a unit such as ``m/s^2``, ``\\mu m``,
    ``kg \\cdot m^{-3}``, ``°C`` or ``%``. The empty string counts."""
    text = unwrap_text(rest)
    text = re.sub(r"\\cdot|\\times|\\,|\\;|[\s{}()/*.^·\-+0-9]", " ", text)
    tokens = re.findall(r"\\?[A-Za-zμΩ°%Å]+|\S", text)
    if not tokens and re.search(r"[\d()]", unwrap_text(rest)):
        return False  # "(2)" after a 2 is a product, not a unit
    return all(is_unit_token(t, extra) for t in tokens)


def strip_unit_suffix(s: str, extra: frozenset[str] = frozenset()) -> str:
    """Remove a trailing unit that is explicitly typeset as one (``\\mathrm{m/s}``, ``\\text{ atm}``,
    ``°``, ``%``) or that matches the problem's declared unit. A bare trailing letter is kept:
    in ``x = v t`` the ``t`` is a variable, not tonnes."""
    prev = None
    while prev != s:
        prev = s
        s = re.sub(r"\s*(?:°C?|%)\s*$", "", s)
        m = re.search(
            r"(?:\s*\\?(?:mu|μ|Omega|Ω)?\s*\\(?:mathrm|text|rm|textrm|mbox)\s*\{([^{}]*)\}(?:\s*\^\s*\{?-?\d+\}?)?)+\s*$",
            s,
        )
        if m and is_unit_like(m.group(0), extra) and m.start() > 0:
            s = s[: m.start()].rstrip()
        elif extra:
            tail = re.search(r"(?<=[\d}\s])\s*([A-Za-zμΩ][A-Za-z/^\-\d\s\\]*)\s*$", s)
            if (
                tail
                and m is None
                and unit_tokens(tail.group(1))
                and unit_tokens(tail.group(1)) <= extra
                and re.search(r"\d\s*$", s[: tail.start()])
            ):
                s = s[: tail.start()].rstrip()
    return s


def compact(s: str) -> str:
    """The canonical string form used by the string-equality rule."""
    s = unwrap_text(s)
    s = re.sub(r"\s+", "", s)
    s = re.sub(r"([_^])\{([A-Za-z0-9])\}", r"\1\2", s)  # x^{2} -> x^2
    s = re.sub(r"\\frac(\d)(\d)", r"\\frac{\1}{\2}", s)  # \frac12 -> \frac{1}{2}
    s = s.replace("\\approx", "=")
    return s.rstrip(".,;")


def normalize(answer: str, unit: str | None = None) -> str:
    """The string-equality form of one answer (its left-hand side is the caller's business:
    see rubrics.lhs)."""
    extra = unit_tokens(unit)
    s = basic(answer)
    s = strip_qualifier(s)
    s = strip_unit_suffix(s, extra)
    return compact(s)
