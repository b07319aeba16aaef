"""Chess family: LLM and builtin players on positions, puzzles and full games, scored with
Stockfish (games/chess). The platform reads EVALUATOR, BUILTINS and DEFAULT_BENCHMARKS."""

from __future__ import annotations

from typing import Any

from evaluators.chess.config import resolve_path
from evaluators.chess.evaluator import ChessEvaluator
from evaluators.chess.players import BUILTINS

PUZZLES_SAMPLE = "shared:lichess/lichess_puzzles_sample_2k.csv"
PUZZLES_SAMPLE_SLUG = "chess/puzzles-sample-50"

EVALUATOR = ChessEvaluator()

DEFAULT_BENCHMARKS: list[dict[str, Any]] = [
    {
        "slug": "chess/best-move-demo",
        "name": "Chess: best move (demo set)",
        "version": "1",
        "config": {"task": "best_move", "positions": "data/chess_demo/positions.json"},
        "default_samples": 1,
        "description": "Find the engine's best move in 24 positions from Stockfish self-play with "
        "randomised openings; moves scored by Win% drop, Lichess accuracy and class.",
    },
    {
        "slug": "chess/mc-best-demo",
        "name": "Chess: best of 5 (demo set)",
        "version": "1",
        "config": {"task": "mc_best", "positions": "data/chess_demo/positions.json"},
        "default_samples": 1,
        "description": "Pick the best of five candidate moves (the answer is >= 20 Win% better than each other).",
    },
    {
        "slug": "chess/mc-worst-demo",
        "name": "Chess: worst of 5 (demo set)",
        "version": "1",
        "config": {"task": "mc_worst", "positions": "data/chess_demo/positions.json"},
        "default_samples": 1,
        "description": "Pick the worst of five candidate moves (the answer is >= 20 Win% worse than each other).",
    },
    {
        "slug": "chess/legal-moves-demo",
        "name": "Chess: legal moves of a piece (demo set)",
        "version": "1",
        "config": {"task": "legal_moves", "positions": "data/chess_demo/positions.json"},
        "default_samples": 1,
        "description": "List every legal move of a named piece; scored by intersection over union.",
    },
    {
        "slug": PUZZLES_SAMPLE_SLUG,
        "name": "Chess: Lichess puzzles (50 of the 2k sample)",
        "version": "1",
        "config": {"task": "puzzles", "puzzles": {"csv": PUZZLES_SAMPLE, "limit": 50}},
        "default_samples": 1,
        "demo": False,  # reads the shared sample, which a fresh host lacks
        "description": "The first 50 puzzles of the shared Lichess sample; every solver move must be right "
        "(any mate counts); accuracy by rating band.",
    },
    {
        "slug": "chess/games-vs-stockfish",
        "name": "Chess: games against Stockfish levels",
        "version": "1",
        "config": {
            "task": "games",
            "opponents": [{"player": "stockfish-elo-1350"}, {"player": "stockfish-elo-1800"}],
            "games_per_opponent": 2,
            "max_moves": 200,
        },
        "default_samples": 1,
        "description": "Full games against Stockfish at UCI_Elo 1350 and 1800, colours alternating; Elo "
        "against their ratings as measured by the ladder's round robin (not the settings), with a "
        "95% likelihood-ratio interval. An illegal move after 3 rethinks loses.",
    },
    {
        "slug": "chess/games-ladder",
        "name": "Chess: rated games against the measured ladder",
        "version": "1",
        "config": {"task": "games", "opponents": "ladder", "games": 60, "max_moves": 200},
        "default_samples": 1,
        "demo": False,  # 60 full games per model: a real evaluation, not a demo
        "description": "60 games; each starts against the Stockfish rung rated nearest the model's current "
        "estimate. The rungs' ratings come from a round robin played here at the games' settings; "
        "the model's Elo is the maximum-likelihood fit with a 95% likelihood-ratio interval that "
        "includes the ladder's uncertainty (one-sided when every game is lost or won).",
    },
]

# The demo's baselines: the weakest, two calibrated levels and full strength.
DEMO_PLAYERS = ["random", "stockfish-elo-1350", "stockfish-elo-2200", "stockfish"]

# The puzzle benchmark reads the shared Lichess sample, which is never in the repository: on a
# host without it the benchmark is not offered (instead of failing every other registration).
if not resolve_path(PUZZLES_SAMPLE).is_file():
    DEFAULT_BENCHMARKS = [b for b in DEFAULT_BENCHMARKS if b["slug"] != PUZZLES_SAMPLE_SLUG]

__all__ = ["BUILTINS", "DEFAULT_BENCHMARKS", "DEMO_PLAYERS", "EVALUATOR"]
