"""Nim's Run.metrics: the contract between NimEvaluator.aggregate and its readers."""

from __future__ import annotations

from evaluators.base import RunMetrics


class NimMetrics(RunMetrics, total=False):
    # score / score_se: games won, in percent
    games: int
    wins: int
    illegal: int  # games lost by an illegal or unreadable move
    opponent: str
