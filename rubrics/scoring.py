"""Problem, exam and suite scores; medals; bootstrap uncertainty.

P = max(A, S) per (problem, sample). Exam score = sum over problems of the mean P over samples.
Beyond the published protocol: a bootstrap over samples (each problem's samples resampled with
replacement) gives a 95% interval for the exam score and the probability of each medal.
A failed sample (no reply could be obtained or graded) counts as 0 points: a model that cannot
answer earns nothing, and the failure count is reported next to the score.

Medals are decided on the score as published, rounded half up to one decimal (the HiPhO
leaderboard publishes one decimal and compares that figure with the cut-offs): 19.66 shows as
19.7 and earns the gold of a 19.7 cut-off; 19.64 shows as 19.6 and does not. The bootstrap
medal probabilities round each draw the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from rubrics.catalogue import MEDALS, Cutoffs

BOOTSTRAP_DRAWS = 2000
BOOTSTRAP_SEED = 20250711


@dataclass(frozen=True)
class SampleScore:
    problem_id: str
    sample_index: int
    A: float
    S: float | None  # None: step-level not graded (no judge, or no marking scheme)
    failed: bool = False
    best_scheme: int | None = None

    @property
    def P(self) -> float:
        if self.failed:
            return 0.0
        return max(self.A, self.S if self.S is not None else 0.0)


MEDAL_BASIS = "the score as published: rounded half up to one decimal"


def published(score: float) -> float:
    """The score as the leaderboard publishes it: one decimal, half up (19.65 -> 19.7). The
    repr of a float (shortest round-trip) is rounded, so 19.65 is not read as 19.6499999."""
    return float(Decimal(repr(float(score))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def problem_points(A: float, S: float | None) -> float:
    return max(A, S if S is not None else 0.0)


def _mean(xs: Sequence[float]) -> float:
    return float(sum(xs) / len(xs)) if xs else 0.0


def score_exam(
    *,
    full_marks: Mapping[str, float],
    samples: Sequence[SampleScore],
    cutoffs: Cutoffs | None,
    draws: int = BOOTSTRAP_DRAWS,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, object]:
    """Per-exam metrics (the hipho Run.metrics fields, without run bookkeeping).

    ``full_marks`` lists every problem of the exam (problem id -> full mark); a problem
    without any sample scores 0.
    """
    by_problem: dict[str, list[SampleScore]] = {pid: [] for pid in full_marks}
    for s in samples:
        if s.problem_id not in by_problem:
            raise KeyError(f"sample for unknown problem {s.problem_id!r}")
        by_problem[s.problem_id].append(s)

    problems: dict[str, dict[str, object]] = {}
    p_lists: list[list[float]] = []
    for pid, full in full_marks.items():
        rows = sorted(by_problem[pid], key=lambda s: s.sample_index)
        ps = [s.P for s in rows] or [0.0]
        p_lists.append(ps)
        done = [s for s in rows if not s.failed]
        s_vals = [s.S for s in done if s.S is not None]
        schemes = Counter(s.best_scheme for s in done if s.best_scheme is not None)
        problems[pid] = {
            "full": full,
            "A": _mean([s.A for s in done]) if done else 0.0,
            "S": _mean(s_vals) if s_vals else None,
            "P": _mean(ps),
            "best_scheme": schemes.most_common(1)[0][0] if schemes else None,
            "samples": len(rows),
            "failed": len(rows) - len(done),
        }

    score = sum(_mean(ps) for ps in p_lists)
    if all(len(ps) >= 2 for ps in p_lists):
        variance = sum(float(np.var(ps, ddof=1)) / len(ps) for ps in p_lists)
        score_se: float | None = math.sqrt(variance)
    else:
        score_se = None  # one sample per problem: no spread to measure

    rng = np.random.default_rng(seed)
    boot = np.zeros(draws)
    for ps in p_lists:
        arr = np.asarray(ps, dtype=float)
        idx = rng.integers(0, len(arr), size=(draws, len(arr)))
        boot += arr[idx].mean(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])

    full_total = round(sum(full_marks.values()), 6)
    result: dict[str, object] = {
        "score": round(score, 6),
        "score_se": None if score_se is None else round(score_se, 6),
        "score_ci95": [round(float(lo), 6), round(float(hi), 6)],
        "full_marks": full_total,
        "problems": problems,
    }
    if cutoffs is None:
        result.update(medal=None, medal_probs=None, cutoffs=None, share_of_top_human=None)
    else:
        medals = Counter(cutoffs.medal(published(float(x))) for x in boot)
        result.update(
            medal=cutoffs.medal(published(score)),
            score_published=published(score),
            medal_basis=MEDAL_BASIS,
            medal_probs={m: round(medals.get(m, 0) / draws, 4) for m in MEDALS},
            cutoffs=cutoffs.as_dict(),
            share_of_top_human=round(score / cutoffs.top_human, 6) if cutoffs.top_human else None,
        )
    return result


def score_suite(exams: Mapping[str, Mapping[str, object]]) -> dict[str, object]:
    """The suite headline: mean over exams of the score as a percentage of the model full mark,
    with its standard error from the per-exam ones (when every exam has one)."""
    if not exams:
        return {"score": 0.0, "score_se": None, "medal_counts": {m: 0 for m in MEDALS}}
    pcts: list[float] = []
    ses: list[float | None] = []
    for m in exams.values():
        full = float(m["full_marks"]) or 1.0  # type: ignore[arg-type]
        pcts.append(100.0 * float(m["score"]) / full)  # type: ignore[arg-type]
        se = m.get("score_se")
        ses.append(None if se is None else 100.0 * float(se) / full)  # type: ignore[arg-type]
    n = len(pcts)
    known = [s for s in ses if s is not None]
    se_total = math.sqrt(sum(s * s for s in known)) / n if len(known) == n else None
    counts = Counter(str(m.get("medal")) for m in exams.values() if m.get("medal") is not None)
    return {
        "score": round(sum(pcts) / n, 6),
        "score_se": None if se_total is None else round(se_total, 6),
        "score_unit": "percent of model full marks, mean over exams",
        "medal_counts": {m: counts.get(m, 0) for m in MEDALS},
    }
