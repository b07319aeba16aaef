"""Exam scores: P = max(A, S), mean over samples, sum over problems; bootstrap interval and
medal probabilities; share of the top human."""

from __future__ import annotations

import pytest

from rubrics.catalogue import CATALOGUE, Cutoffs
from rubrics.scoring import SampleScore, score_exam, score_suite

CUTS = Cutoffs(gold=7.0, silver=5.0, bronze=3.0, top_human=10.0)
FULL = {"p1": 4.0, "p2": 6.0}


def test_it_takes_the_better_of_answer_and_step_level():
    samples = [
        SampleScore("p1", 0, A=1.0, S=3.0, best_scheme=0),
        SampleScore("p2", 0, A=6.0, S=2.0),
    ]
    m = score_exam(full_marks=FULL, samples=samples, cutoffs=CUTS)
    assert m["problems"]["p1"] == {
        "full": 4.0,
        "A": 1.0,
        "S": 3.0,
        "P": 3.0,
        "best_scheme": 0,
        "samples": 1,
        "failed": 0,
    }
    assert m["score"] == 9.0 and m["medal"] == "gold"
    assert m["share_of_top_human"] == pytest.approx(0.9)
    assert m["score_se"] is None  # one sample per problem
    assert m["score_ci95"] == [9.0, 9.0]
    assert m["medal_probs"] == {"gold": 1.0, "silver": 0.0, "bronze": 0.0, "none": 0.0}


def test_it_averages_samples_and_bootstraps_them():
    samples = [SampleScore("p1", i, A=a, S=None) for i, a in enumerate([4.0, 0.0, 4.0, 0.0])]
    samples += [SampleScore("p2", i, A=a, S=None) for i, a in enumerate([6.0, 6.0, 0.0, 0.0])]
    m = score_exam(full_marks=FULL, samples=samples, cutoffs=CUTS)
    assert m["score"] == 5.0 and m["medal"] == "silver"
    # var(P) with ddof=1: p1 16/3, p2 12 -> se = sqrt((16/3 + 12) / 4)
    assert m["score_se"] == pytest.approx(((16 / 3 + 12) / 4) ** 0.5, abs=1e-6)
    lo, hi = m["score_ci95"]
    assert 0.0 <= lo < 5.0 < hi <= 10.0
    probs = m["medal_probs"]
    assert sum(probs.values()) == pytest.approx(1.0)
    assert all(0 < probs[k] < 1 for k in ("gold", "silver", "none"))
    assert m["problems"]["p2"]["S"] is None


def test_it_counts_failed_samples_and_missing_problems_as_zero():
    samples = [
        SampleScore("p1", 0, A=4.0, S=None),
        SampleScore("p1", 1, A=4.0, S=None, failed=True),
    ]
    m = score_exam(full_marks=FULL, samples=samples, cutoffs=CUTS)
    assert m["problems"]["p1"]["P"] == 2.0 and m["problems"]["p1"]["failed"] == 1
    assert m["problems"]["p2"]["P"] == 0.0 and m["problems"]["p2"]["samples"] == 0
    assert m["score"] == 2.0 and m["medal"] == "none"


def test_it_scores_cpho_without_a_medal():
    m = score_exam(
        full_marks={"q": 320.0},
        samples=[SampleScore("q", 0, A=200.0, S=None)],
        cutoffs=CATALOGUE["cpho-2025"].cutoffs,
    )
    assert m["score"] == 200.0
    assert m["medal"] is None and m["medal_probs"] is None and m["cutoffs"] is None


def test_the_suite_averages_percentages():
    exams = {
        "a": {"score": 15.0, "full_marks": 30.0, "score_se": None, "medal": "gold"},
        "b": {"score": 80.0, "full_marks": 320.0, "score_se": None, "medal": None},
    }
    m = score_suite(exams)
    assert m["score"] == pytest.approx((50.0 + 25.0) / 2)
    assert m["medal_counts"] == {"gold": 1, "silver": 0, "bronze": 0, "none": 0}


@pytest.mark.parametrize(
    "score,shown,medal",
    [
        (19.66, 19.7, "gold"),  # published as 19.7: IPhO 2025 gold is 19.7
        (19.65, 19.7, "gold"),  # half up, not banker's rounding nor float noise (19.6499...)
        (19.64, 19.6, "silver"),  # published as 19.6: below gold
        (12.05, 12.1, "silver"),
        (12.04, 12.0, "bronze"),
    ],
)
def test_medals_are_decided_on_the_score_as_published(score, shown, medal):
    from rubrics.scoring import published

    cuts = CATALOGUE["ipho-2025"].cutoffs
    assert published(score) == shown
    m = score_exam(
        full_marks={"p1": 30.0}, samples=[SampleScore("p1", 0, A=score, S=None)], cutoffs=cuts
    )
    assert m["medal"] == medal and m["score_published"] == shown
    assert m["medal_basis"].startswith("the score as published")
    assert m["medal_probs"][medal] == 1.0  # one sample: every bootstrap draw is the same score
