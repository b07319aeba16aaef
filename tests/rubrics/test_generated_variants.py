"""The strict answer grader on labelled variants of every official reference answer.

The variants are generated at test time from ../shared/data/hipho (tests/rubrics/variants.py,
labelled by construction from the definitions of equivalence and error, never from the grader)
and never stored. Targets (issue 11): at most 0.2 % false accepts (wrong variants accepted) and
at most 0.5 % false rejects (equivalent variants rejected). The per-kind figures are printed
(run with -s) and recorded as test properties.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from rubrics.answers import check_answer
from tests.requirements import require
from tests.rubrics.paths import hipho_dir
from tests.rubrics.variants import generate

MIN_CASES = 3000
MAX_FALSE_ACCEPT = 0.002
MAX_FALSE_REJECT = 0.005


# About 60 s of CPU; the work per comparison is bounded (rubrics.symbolic), but a loaded shared
# machine can stretch the wall time past the default per-test timeout.
@pytest.mark.timeout(1800)
def test_the_strict_grader_on_generated_variants(record_property):
    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    cases = generate(hipho_dir())
    assert len(cases) >= MIN_CASES
    per_kind: dict[tuple[str, bool], list[int]] = defaultdict(lambda: [0, 0])
    mistakes = []
    for case in cases:
        accepted, rule = check_answer(case.given, case.reference, unit=case.unit)
        tally = per_kind[(case.kind, case.correct)]
        tally[0] += 1
        if accepted != case.correct:
            tally[1] += 1
            mistakes.append((case.kind, case.given, case.reference, rule))
    wrong = sum(n for (_, label), (n, _) in per_kind.items() if not label)
    right = sum(n for (_, label), (n, _) in per_kind.items() if label)
    false_accepts = sum(e for (_, label), (_, e) in per_kind.items() if not label)
    false_rejects = sum(e for (_, label), (_, e) in per_kind.items() if label)
    lines = [
        f"{len(cases)} cases: {right} equivalent, {wrong} wrong; "
        f"false accepts {false_accepts}/{wrong} = {false_accepts / wrong:.3%}, "
        f"false rejects {false_rejects}/{right} = {false_rejects / right:.3%}"
    ]
    for (kind, label), (n, errors) in sorted(per_kind.items()):
        what = "false rejects" if label else "false accepts"
        lines.append(
            f"  {kind:26s} {'equivalent' if label else 'wrong':10s} n={n:5d} {what} {errors:3d} ({errors / n:.2%})"
        )
    report = "\n".join(lines)
    print(report)
    record_property("generated_variants", report)
    shown = "\n".join(f"{k}: {g!r} vs {r!r} ({rule})" for k, g, r, rule in mistakes[:40])
    assert false_accepts / wrong <= MAX_FALSE_ACCEPT, f"{report}\n{shown}"
    assert false_rejects / right <= MAX_FALSE_REJECT, f"{report}\n{shown}"
