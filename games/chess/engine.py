"""Stockfish over UCI through python-chess.

One ``Engine`` is one engine process. Analysis runs with one thread and a fixed node limit by
default, and the hash is cleared before every search (a new UCI game), so the same position
with the same limit always yields the same result, whichever worker analyses it and whatever
it analysed before. Depth or time limits are available but time limits do not repeat exactly.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import chess
import chess.engine

from games.chess.formulas import clamp_cp

log = logging.getLogger(__name__)
DEFAULT_NODES = 20_000
DEBIAN_STOCKFISH = "/usr/games/stockfish"
STOCKFISH_ENV = "PODIUM_STOCKFISH"


class EngineNotFoundError(FileNotFoundError):
    """The engine binary does not exist or is not executable; the message names the path."""


class EngineError(RuntimeError):
    """The engine process failed (crashed, refused an option, returned no move)."""


@dataclass(frozen=True)
class SearchLimit:
    """How long a search runs. Nodes repeat exactly; depth mostly does; time does not."""

    nodes: int | None = DEFAULT_NODES
    depth: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is None and self.depth is None and self.time is None:
            raise ValueError("a search limit needs nodes, depth or time")
        for name in ("nodes", "depth", "time"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"search limit {name} must be positive, got {value!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> SearchLimit:
        if not data:
            return cls()
        unknown = set(data) - {"nodes", "depth", "time"}
        if unknown:
            raise ValueError(f"unknown search limit field(s): {sorted(unknown)}")
        return cls(nodes=data.get("nodes"), depth=data.get("depth"), time=data.get("time"))

    def key(self) -> str:
        return f"nodes={self.nodes},depth={self.depth},time={self.time}"

    def to_chess(self) -> chess.engine.Limit:
        return chess.engine.Limit(nodes=self.nodes, depth=self.depth, time=self.time)


@dataclass(frozen=True)
class Evaluation:
    """A search result from the point of view of the side to move in the searched position."""

    cp: int | None  # None when mate is set
    mate: int | None  # moves to mate, positive if the side to move mates; 0: it is mated
    best_move: str | None  # UCI; None in a finished position
    pv: tuple[str, ...] = ()  # analyse() keeps only the PV's first move (the best move)
    depth: int = 0
    nodes: int = 0

    @property
    def clamped_cp(self) -> int:
        return clamp_cp(self.cp, self.mate)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cp": self.cp,
            "mate": self.mate,
            "best_move": self.best_move,
            "pv": list(self.pv),
            "depth": self.depth,
            "nodes": self.nodes,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Evaluation:
        return cls(
            cp=d["cp"],
            mate=d["mate"],
            best_move=d["best_move"],
            pv=tuple(d.get("pv", ())),
            depth=d.get("depth", 0),
            nodes=d.get("nodes", 0),
        )


def terminal_evaluation(board: chess.Board) -> Evaluation | None:
    """The value of a finished game without asking the engine (engines answer no move there)."""
    if board.is_checkmate():
        return Evaluation(cp=None, mate=0, best_move=None)
    if board.is_stalemate() or board.is_insufficient_material() or board.is_fifty_moves():
        return Evaluation(cp=0, mate=None, best_move=None)
    return None


def find_stockfish(path: str | os.PathLike[str] | None = None) -> str:
    """The engine binary: an explicit path, else $PODIUM_STOCKFISH, else `stockfish` on PATH,
    else the Debian location. Raises EngineNotFoundError naming the path it tried."""
    explicit = path or os.environ.get(STOCKFISH_ENV)
    if explicit:
        p = Path(explicit)
        if not p.is_file() or not os.access(p, os.X_OK):
            raise EngineNotFoundError(f"chess engine binary not found or not executable: {p}")
        return str(p)
    found = shutil.which("stockfish") or (
        DEBIAN_STOCKFISH if os.access(DEBIAN_STOCKFISH, os.X_OK) else None
    )
    if not found:
        raise EngineNotFoundError(
            f"chess engine binary not found: no `stockfish` on PATH and none at {DEBIAN_STOCKFISH} "
            f"(install the Debian package `stockfish` or set {STOCKFISH_ENV})"
        )
    return found


class Engine:
    """One Stockfish process: analysis at a fixed limit, and play at full or limited strength."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        limit: SearchLimit | None = None,
        hash_mb: int = 16,
    ) -> None:
        self.path = find_stockfish(path)
        self.limit = limit or SearchLimit()
        try:
            self._engine = chess.engine.SimpleEngine.popen_uci(self.path)
        except (OSError, chess.engine.EngineError) as exc:
            raise EngineError(f"could not start chess engine {self.path}: {exc}") from exc
        self._engine.configure({"Threads": 1, "Hash": hash_mb})
        self.name = str(self._engine.id.get("name", Path(self.path).name))
        self.pid = os.getpid()

    @property
    def id(self) -> str:
        """Engine name and version, part of every analysis cache key."""
        return self.name

    @property
    def alive(self) -> bool:
        try:
            return not self._engine.protocol.returncode.done()
        except (AttributeError, RuntimeError):  # a torn-down event loop: the process is gone
            return False

    def analyse(
        self,
        board: chess.Board,
        *,
        limit: SearchLimit | None = None,
        root_moves: Sequence[chess.Move] | None = None,
    ) -> Evaluation:
        """Search ``board`` (restricted to ``root_moves`` when given) from a cleared hash."""
        done = terminal_evaluation(board)
        if done is not None and not root_moves:
            return done
        fresh = chess.Board(board.fen())  # keyed by FEN: the move history must not matter
        try:
            # Only the score is parsed from the info lines, and the move comes from the bestmove
            # line: python-chess would otherwise replay every info line's PV on a board (about
            # half the worker CPU of a scored move). Same search, same score, depth and nodes;
            # the best move is the first move of the last PV (tests/games/chess/test_engine.py).
            with self._engine.analysis(
                fresh,
                (limit or self.limit).to_chess(),
                root_moves=list(root_moves) if root_moves else None,
                game=object(),
                info=chess.engine.INFO_SCORE,
            ) as analysis:
                best = analysis.wait()
                info = analysis.info
        except chess.engine.EngineError as exc:
            raise EngineError(f"{self.name} failed on {board.fen()}: {exc}") from exc
        score = info.get("score")
        if score is None:
            raise EngineError(f"{self.name} returned no score for {board.fen()}")
        pov = score.pov(board.turn)
        pv = (best.move.uci(),) if best.move is not None else ()
        return Evaluation(
            cp=pov.score(),
            mate=pov.mate(),
            best_move=pv[0] if pv else None,
            pv=pv,
            depth=int(info.get("depth", 0)),
            nodes=int(info.get("nodes", 0)),
        )

    def play(
        self, board: chess.Board, *, elo: int | None = None, limit: SearchLimit | None = None
    ) -> chess.Move:
        """The engine's move; with ``elo`` it plays at UCI_LimitStrength with that UCI_Elo."""
        options: dict[str, Any] = {}
        if elo is not None:
            options = {"UCI_LimitStrength": True, "UCI_Elo": int(elo)}
        try:
            result = self._engine.play(
                board, (limit or self.limit).to_chess(), options=options, game=object()
            )
        except chess.engine.EngineError as exc:
            raise EngineError(f"{self.name} failed to play in {board.fen()}: {exc}") from exc
        if result.move is None:
            raise EngineError(f"{self.name} returned no move in {board.fen()}")
        return result.move

    def close(self) -> None:
        try:
            self._engine.quit()
        except (chess.engine.EngineError, RuntimeError, OSError, TimeoutError):
            # already dead or unresponsive: close the transport, which kills the process
            try:
                self._engine.close()
            except (chess.engine.EngineError, RuntimeError, OSError) as exc:
                log.debug("closing a dead engine: %s", exc)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
