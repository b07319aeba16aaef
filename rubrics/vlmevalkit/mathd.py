"""Stage 1 of the official HiPhO cascade (rubrics.vlmevalkit): ``mathd``, string equality after
the official normalisation (``grade_answer_mathd`` / ``_strip_string``)."""

from __future__ import annotations

import re

from rubrics.vlmevalkit.units import drop_unit_words


class _Unnormalisable(Exception):
    """The official normaliser raised; it then compares the answer as given (stripped)."""


def _fix_fracs(s: str) -> str:
    parts = s.split("\\frac")
    out = parts[0]
    for part in parts[1:]:
        out += "\\frac"
        if part[:1] == "{":
            out += part
            continue
        if len(part) < 2:
            raise _Unnormalisable
        a, b, rest = part[0], part[1], part[2:]
        out += "{" + a + "}" + ("{" + b + "}" + rest if b != "{" else b + rest)
    return out


def _fix_a_slash_b(s: str) -> str:
    if len(s.split("/")) != 2:
        return s
    a, b = s.split("/")
    if re.fullmatch(r"-?\d+", a) and re.fullmatch(r"\d+", b) and s == f"{int(a)}/{int(b)}":
        return "\\frac{" + str(int(a)) + "}{" + str(int(b)) + "}"
    return s


def _fix_sqrt(s: str) -> str:
    if "\\sqrt" not in s:
        return s
    parts = s.split("\\sqrt")
    out = parts[0]
    for part in parts[1:]:
        if part[:1] != "{" and part:
            out += "\\sqrt{" + part[0] + "}" + part[1:]
        else:
            out += "\\sqrt" + part
    return out


def mathd_normalize(answer: str) -> str:
    answer = answer.strip()
    m = re.search(r"^\\text\{(?P<text>.+?)\}$", answer)
    if m:
        answer = m.group("text").strip()
    try:
        return _strip_string(answer)
    except (_Unnormalisable, IndexError):
        return answer


def _strip_string(s: str) -> str:
    s = s.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    s = re.sub(r"\\begin\{array\}\{.*?\}", r"\\begin{pmatrix}", s)
    s = re.sub(r"\\end\{array\}", r"\\end{pmatrix}", s).replace("bmatrix", "pmatrix")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac")
    s = s.replace("\\neq", "\\ne").replace("\\leq", "\\le").replace("\\geq", "\\ge")
    s = s.replace("\\left", "").replace("\\right", "")
    without_text = re.sub(r"\\text{.*?}$", "", s).strip()
    if without_text != "" and without_text != s:
        s = without_text
    s = drop_unit_words(s)
    s = s.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\$", "")
    if "\\text{ " in s:
        pieces = s.split("\\text{ ")
        if len(pieces) != 2:
            raise _Unnormalisable
        s = pieces[0]
    s = s.replace("\\%", "").replace(" .", " 0.").replace("{.", "{0.")
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    if s[0] == "{" and s[-1] == "}":
        s = s[1:-1]
    halves = s.split("=")
    if len(halves) == 2 and len(halves[0]) <= 2:  # "k = ..." (at most 2 characters, spaces count)
        s = halves[1]
    s = _fix_sqrt(s).replace(" ", "")
    s = _fix_fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    return _fix_a_slash_b(s)
