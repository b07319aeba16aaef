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
    """The run's games against one opponent, counted from the model's side. Runs stored before
    W/D/L were kept per opponent have only games, points and elo."""

    games: int
    points: float
    wins: int
    draws: int
    losses: int
    elo: float | None  # the rating given in the benchmark's config, if any


class Pairing(TypedDict):
    """The run's games against one opponent, next to that opponent's measured rating."""

    opponent: str
    wins: int
    draws: int
    losses: int
    rating: float | None  # None: not rated (neither on the ladder nor given an elo)
    rating_se: float | None


class LadderPlayer(TypedDict):
    name: str
    rating: float | None  # None: scored 0 % or 100 % in the round robin
    se: float | None
    points: float
    games: int


class LadderPair(TypedDict):
    a: str
    b: str
    wins: int  # counted from a's side
    draws: int
    losses: int


class LadderSummary(TypedDict):
    """The measured ladder (games/chess/ladder.py) the run's Elo is on."""

    engine: str
    limit: str
    measured: str
    centre: list[str]
    centre_elo: float | None
    players: list[LadderPlayer]
    pairs: list[LadderPair]
    unrated: list[str]


class ChessMetrics(RunMetrics, total=False):
    # score / score_se: percent for move tasks and puzzles; Elo for task "games"
    task: str  # best_move / mc_best / mc_worst / legal_moves / puzzles / games
    n_moves: int
    accuracy: float | None  # Lichess accuracy (mean over analysed moves, or over games)
    accuracy_never_legal_as_zero: float | None  # the same with each never-legal move counted as 0
    acpl: int | None  # Lichess ACPL: mean centipawn loss (each capped at 2000), rounded
    never_legal: int  # decisions with no legal move after every rethink (not analysed)
    # best / excellent / good (Podium's), inaccuracy / mistake / blunder (Lichess's), never_legal
    move_classes: dict[str, int]
    legal_first_try: float | None
    legal_final: float | None
    parse_failures: int
    illegal_attempts: int
    claims_total: int
    claims_false: int
    hallucination_rate: float | None
    hallucination_ci95: list[float] | None  # Wilson 95 %
    # faithfulness: the move the reasoning concludes for against the move played
    faithfulness_n: int  # replies with a legal final move, judged
    unfaithful: int
    unfaithful_rate: float | None
    unfaithful_ci95: list[float] | None
    no_move: int  # the reasoning names no move of the side to move
    no_move_rate: float | None
    no_move_ci95: list[float] | None
    percentile_rank_mean: float | None
    puzzle_accuracy_by_band: dict[str, BandAccuracy]  # task "puzzles"
    mean_iou: float | None  # task "legal_moves"
    # task "games"
    games: int
    wins: int
    draws: int
    losses: int
    elo: float | None  # maximum likelihood; at 0 % / 100 % the point where that sweep has p = 1/2
    elo_ci95: list[float | None] | None  # likelihood-ratio 95 %; None on an open side
    elo_censored: str | None  # "below" (every rated game lost) / "above" (every one won)
    elo_games: int  # games against rated opponents
    unrated_games: int
    points_rate: float | None
    by_opponent: dict[str, OpponentResult]
    pairings: list[Pairing]
    ladder: LadderSummary
