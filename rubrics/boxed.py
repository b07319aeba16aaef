"""Extract ``\\boxed{...}`` contents from model replies and reference answers.

Braces are matched by counting, so nested ``\\frac{..}{..}`` survive. An unclosed box (one
official reference, CPhO 2025 7.6, lacks its closing brace) yields the rest of the text.
"""

from __future__ import annotations

import re

_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")


def boxed_contents(text: str) -> list[str]:
    """Every boxed content in order of appearance (boxes nested inside a box are not
    listed separately: the outer content is the answer)."""
    out: list[str] = []
    pos = 0
    while True:
        m = _BOX.search(text, pos)
        if not m:
            return out
        depth = 1
        i = m.end()
        while i < len(text) and depth:
            ch = text[i]
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in "{}":
                i += 2  # an escaped brace \{ or \} does not open or close
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            i += 1
        end = i - 1 if depth == 0 else len(text)
        out.append(text[m.end() : end].strip())
        pos = i


def last_boxed(text: str, n: int) -> list[str]:
    """The last ``n`` boxed answers of a reply, in order (fewer when the reply has fewer)."""
    if n <= 0:
        return []
    return boxed_contents(text)[-n:]


def reference_content(answer: str) -> str:
    """The content of one reference answer: its box, or the bare text when it has none."""
    found = boxed_contents(answer)
    return found[0] if found else answer.strip()
