"""Chess's Run.metrics: the contract between evaluators.chess.aggregate and its readers
(leaderboard entries, the chess dashboard, the API)."""

from __future__ import annotations

from typing import TypedDict

from evaluators.base import RunMetrics


class BandAccuracy(TypedDict):
    n: int
    solved: int
    rate: float


class OpponentResult(TypedDict, total=False):
    games: int
    points: float
    elo: float | None


class ChessMetrics(RunMetrics, total=False):
    # score / score_se: percent for move tasks and puzzles; Elo for task "games"
    task: str  # best_move / mc_best / mc_worst / legal_moves / puzzles / games
    n_moves: int
    accuracy: float | None  # Lichess accuracy (mean over analysed moves, or over games)
    acpl: float | None  # average centipawn loss
    move_classes: dict[str, int]  # best / excellent / good / inaccuracy / mistake / blunder -> moves
    legal_first_try: float | None
    legal_final: float | None
    parse_failures: int
    illegal_attempts: int
    claims_total: int
    claims_false: int
    hallucination_rate: float | None
    percentile_rank_mean: float | None
    puzzle_accuracy_by_band: dict[str, BandAccuracy]  # task "puzzles"
    mean_iou: float | None  # task "legal_moves"
    # task "games"
    games: int
    wins: int
    draws: int
    losses: int
    elo: float | None
    elo_ci95: list[float] | None
    points_rate: float | None
    by_opponent: dict[str, OpponentResult]
