"""Small statistics shared by the family aggregates."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_se(xs: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and its standard error (sample standard deviation / sqrt(n)); None where undefined."""
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def mean_of_estimates(
    values: Sequence[tuple[float, float | None]],
) -> tuple[float | None, float | None]:
    """Mean of independent estimates and its standard error, sqrt(sum se_i^2) / n (None when any
    SE is unknown): how a family headline combines its benchmarks' scores."""
    if not values:
        return None, None
    mean = sum(v for v, _ in values) / len(values)
    ses = [se for _, se in values]
    if any(se is None for se in ses):
        return mean, None
    return mean, math.sqrt(sum(se * se for se in ses if se is not None)) / len(values)
