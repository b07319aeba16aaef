"""Stage 3 of the official HiPhO cascade (rubrics.vlmevalkit): ``math_verify``, math-verify's parse
and verify at 3 digits with a bounded amount of work (``grade_answer_math_verify``)."""

from __future__ import annotations

from typing import Any


def _repetitive(s: str) -> bool:
    """The original's 'repeatness': the summed longest common prefixes of adjacent sorted
    suffixes over n(n+1)/2 above 0.2 (a degenerate, looping answer)."""
    n = len(s)
    if n <= 1:
        return False
    suffixes = sorted(range(n), key=lambda i: s[i:])
    total = 0
    for a, b in zip(suffixes, suffixes[1:]):
        k = 0
        while a + k < n and b + k < n and s[a + k] == s[b + k]:
            k += 1
        total += k
    return total * 2 / (n * (n + 1)) > 0.2


# The official run gives math-verify 1 s (and the sympy test 30 s) of wall time; a comparison
# that runs out counts as "not equal". We bound the work instead, so a verdict never depends on
# machine load: parsed expressions over this operation count count as a timeout would.
MAX_VERIFY_OPS = 60


def _too_big(parsed: Any) -> bool:
    import sympy

    return any(
        isinstance(x, sympy.Basic) and sympy.count_ops(x) > MAX_VERIFY_OPS for x in parsed or []
    )


def grade_math_verify(given: str, reference: str) -> bool:
    """math-verify at numeric_precision=3, first match, no fallback, without its timeouts."""
    import sympy
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    if (len(given) > 128 and _repetitive(given)) or (
        len(reference) > 128 and _repetitive(reference)
    ):
        return False
    config = (LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig())
    try:
        pred = parse(
            given if "$" in given else f"${given}$",
            extraction_config=config,
            fallback_mode="no_fallback",
            extraction_mode="first_match",
            parsing_timeout=None,
        )
        gold = parse(
            reference if "$" in reference else f"${reference}$",
            extraction_config=config,
            fallback_mode="no_fallback",
            extraction_mode="first_match",
            parsing_timeout=None,
        )
        if _too_big(gold) or _too_big(pred):
            return False  # stands in for the official 1 s verify timeout, deterministically
        ok = bool(verify(gold, pred, numeric_precision=3, timeout_seconds=None))
    except Exception:  # noqa: BLE001 - the original returns "not equal" on any failure
        return False
    # a number against an interval: containment decides, whatever verify said
    if (
        pred
        and gold
        and isinstance(pred[0], (sympy.Integer, sympy.Float, sympy.Rational))
        and isinstance(gold[0], sympy.Interval)
    ):
        return bool(gold[0].contains(pred[0]))
    return ok
