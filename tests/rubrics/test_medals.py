"""Medals follow the official cut-off table exactly, boundaries included (score >= cut-off)."""

from __future__ import annotations

import pytest

from rubrics.catalogue import CATALOGUE, medal_for

# exam id: (human full, model full, gold, silver, bronze, top human), as published
TABLE = {
    "ipho-2025": (30, 29.4, 19.7, 12.1, 7.2, 29.2),
    "ipho-2024": (30, 29.3, 20.8, 11.1, 3.6, 29.4),
    "apho-2025": (30, 30.0, 23.3, 18.7, 13.1, 30.0),
    "eupho-2025": (30, 29.0, 16.5, 9.8, 5.8, 27.0),
    "eupho-2024": (30, 28.0, 20.4, 14.2, 8.9, 30.0),
    "nbpho-2025": (72, 43.5, 28.6, 20.1, 15.2, 53.2),
    "nbpho-2024": (72, 50.0, 26.5, 19.4, 13.5, 40.8),
    "panpho-2025": (100, 100, 41.5, 28.5, 14.5, 81.0),
    "panpho-2024": (100, 98.0, 52.0, 37.5, 16.0, 66.5),
    "panmechanics-2025": (100, 100, 52.0, 36.0, 20.0, 62.0),
    "panmechanics-2024": (100, 100, 51.0, 26.0, 12.0, 51.0),
    "fma-2025": (25, 25, 15.0, 11.0, 9.0, 25.0),
    "fma-2024": (25, 25, 14.0, 12.0, 10.0, 24.0),
}


@pytest.mark.parametrize("exam_id", sorted(TABLE))
def test_it_holds_the_official_numbers(exam_id):
    human, model, g, s, b, top = TABLE[exam_id]
    info = CATALOGUE[exam_id]
    assert (info.human_full, info.model_full) == (human, model)
    assert info.cutoffs is not None
    assert (
        info.cutoffs.gold,
        info.cutoffs.silver,
        info.cutoffs.bronze,
        info.cutoffs.top_human,
    ) == (g, s, b, top)
    assert info.official


@pytest.mark.parametrize("exam_id", sorted(TABLE))
def test_it_awards_medals_at_the_boundaries(exam_id):
    _, model, g, s, b, _ = TABLE[exam_id]
    assert medal_for(exam_id, model) == "gold"
    assert medal_for(exam_id, g) == "gold"
    assert medal_for(exam_id, g - 0.05) == "silver"
    assert medal_for(exam_id, s) == "silver"
    assert medal_for(exam_id, s - 0.05) == "bronze"
    assert medal_for(exam_id, b) == "bronze"
    assert medal_for(exam_id, b - 0.05) == "none"
    assert medal_for(exam_id, 0.0) == "none"


def test_it_tolerates_float_sums_at_a_boundary():
    # problem points that add up to 19.7 on paper land a hair under it in floats
    parts = [
        0.1,
        0.4,
        0.1,
        0.1,
        0.3,
        0.6,
        0.6,
        0.7,
        0.6,
        0.7,
        0.7,
        0.7,
        0.7,
        0.7,
        0.6,
        0.6,
        0.1,
        0.7,
        0.3,
        0.7,
        0.7,
        0.6,
        0.6,
        0.7,
        0.3,
        0.2,
        0.2,
        0.7,
        0.2,
        0.7,
        0.7,
        0.4,
        0.4,
        0.2,
        0.4,
        0.7,
        0.1,
        0.6,
        0.7,
        0.6,
    ]
    score = sum(parts)
    assert score < 19.7
    assert medal_for("ipho-2025", score) == "gold"


def test_it_shows_no_medal_for_cpho():
    info = CATALOGUE["cpho-2025"]
    assert info.cutoffs is None and info.model_full == 320
    assert medal_for("cpho-2025", 320.0) is None


def test_it_knows_no_cutoffs_for_an_unknown_exam():
    assert medal_for("nonexistent-2030", 99.0) is None
