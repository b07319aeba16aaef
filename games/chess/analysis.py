"""Scoring moves with an engine and a cache.

Scoring a played move costs at most two searches: the best-move search of the position (shared
by every move played there and cached) and, when the played move is not the engine's choice,
one search restricted to that move (UCI ``searchmoves``). No MultiPV search is needed. The
percentile rank among all legal moves is the one costly extra: one restricted search per legal
move, each cached, so it is only computed on request.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import chess

from games.chess.cache import AnalysisCache, MemoryAnalysisCache, analysis_key
from games.chess.engine import Engine, Evaluation, SearchLimit
from games.chess.formulas import (
    MoveClass,
    classify,
    cp_loss,
    lichess_judgement,
    move_accuracy,
    percentile_rank,
    win_percent,
)


@dataclass(frozen=True)
class MoveScore:
    """One played move judged against the engine's best move, all from the mover's view."""

    move: str  # UCI
    san: str
    best_move: str
    best_san: str
    cp_best: int  # clamped
    cp_played: int  # clamped
    win_before: float  # Win% of the position (with the best move)
    win_after: float  # Win% after the played move
    drop: float
    accuracy: float
    move_class: MoveClass
    cp_loss: int
    is_engine_top: bool
    percentile: float | None = None
    judgement: str | None = None  # Lichess's verdict (inaccuracy/mistake/blunder) or None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("win_before", "win_after", "drop", "accuracy"):
            d[k] = round(d[k], 3)
        if d["percentile"] is not None:
            d["percentile"] = round(d["percentile"], 3)
        return d


class Analyzer:
    """Engine + cache. Every search is looked up in the cache first, keyed by FEN, engine id,
    limit and the restricted moves."""

    def __init__(
        self, engine: Engine, cache: AnalysisCache | None = None, limit: SearchLimit | None = None
    ) -> None:
        self.engine = engine
        self.cache: AnalysisCache = cache if cache is not None else MemoryAnalysisCache()
        self.limit = limit or engine.limit
        self.searches = 0  # searches that actually ran the engine

    def _search(self, board: chess.Board, root_move: chess.Move | None) -> Evaluation:
        roots = [root_move.uci()] if root_move is not None else None
        key = analysis_key(board.fen(), self.engine.id, self.limit.key(), roots)
        hit = self.cache.get(key)
        if hit is not None:
            return Evaluation.from_dict(hit)
        self.searches += 1
        ev = self.engine.analyse(
            board, limit=self.limit, root_moves=[root_move] if root_move else None
        )
        self.cache.put(key, ev.to_dict())
        return ev

    def best(self, board: chess.Board) -> Evaluation:
        """The engine's best move and the position's value for the side to move."""
        return self._search(board, None)

    def move_value(self, board: chess.Board, move: chess.Move) -> Evaluation:
        """The value of ``move`` for the side to move (best search reused when it is the top move)."""
        if move not in board.legal_moves:
            raise ValueError(f"{move.uci()} is not legal in {board.fen()}")
        best = self.best(board)
        if best.best_move == move.uci():
            return best
        return self._search(board, move)

    def all_move_values(self, board: chess.Board) -> dict[str, int]:
        """Clamped cp of every legal move (one restricted search each, all cached)."""
        return {m.uci(): self.move_value(board, m).clamped_cp for m in board.legal_moves}

    def score_move(
        self, board: chess.Board, move: chess.Move, *, with_percentile: bool = False
    ) -> MoveScore:
        best = self.best(board)
        if best.best_move is None:
            raise ValueError(f"no move can be scored in a finished position: {board.fen()}")
        played = self.move_value(board, move)
        is_top = best.best_move == move.uci()
        cp_b = best.clamped_cp
        # a restricted search can see deeper than the full one and find the move better; the
        # best move is still the reference, so the played move can never beat it
        cp_p = min(played.clamped_cp, cp_b)
        w_before, w_after = win_percent(cp_b), win_percent(cp_p)
        drop = max(0.0, w_before - w_after)
        # Lichess judges on the raw values (uncapped cp, mates as mates) and only moves off the
        # engine's line (a played move the restricted search finds better loses nothing and
        # gets no verdict from the rules themselves)
        judgement = (
            None if is_top else lichess_judgement(best.cp, best.mate, played.cp, played.mate)
        )
        pct = None
        if with_percentile:
            # capped at the best move's value, like the played move above
            values = {m: min(v, cp_b) for m, v in self.all_move_values(board).items()}
            pct = percentile_rank(values[move.uci()], list(values.values()))
        best_move = chess.Move.from_uci(best.best_move)
        return MoveScore(
            move=move.uci(),
            san=board.san(move),
            best_move=best.best_move,
            best_san=board.san(best_move),
            cp_best=cp_b,
            cp_played=cp_p,
            win_before=w_before,
            win_after=w_after,
            drop=drop,
            accuracy=move_accuracy(w_before, w_after),
            move_class=classify(drop, is_engine_top=is_top, judgement=judgement),
            cp_loss=cp_loss(cp_b, cp_p),
            is_engine_top=is_top,
            percentile=pct,
            judgement=judgement,
        )
