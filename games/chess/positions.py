"""Our own position sets, generated from Stockfish self-play with randomised openings.

A set is one JSON file: the generator settings and a list of positions. Each position carries
the engine's value (clamped cp, side to move) of every legal move, so tasks built on it (best
move, best-of-5 / worst-of-5 multiple choice, legal moves of a named piece) need no engine to
pose the question, and a re-run poses exactly the same questions.

Multiple choice: the right candidate is at least ``MC_GAP`` Win% points better (best-of-5) or
worse (worst-of-5) than each of the other four, so the answer is unambiguous.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import chess

from games.chess.analysis import Analyzer
from games.chess.formulas import win_percent

MC_GAP = 20.0
MC_SIZE = 5
FORMAT = "podium-chess-positions/1"


class PositionSetError(ValueError):
    """A position set file is unusable; the message names the file, position and field."""


@dataclass(frozen=True)
class MultipleChoice:
    candidates: tuple[str, ...]  # UCI, in the order shown to the model
    answer: str  # UCI


@dataclass(frozen=True)
class Position:
    id: str
    fen: str
    best_move: str  # UCI, the engine's top choice
    cp: int  # clamped value of the position for the side to move
    move_values: dict[str, int] = field(default_factory=dict)  # UCI -> clamped cp, every legal move
    mc_best: MultipleChoice | None = None
    mc_worst: MultipleChoice | None = None
    piece_square: str | None = None  # for "legal moves of the piece on ..."

    def board(self) -> chess.Board:
        return chess.Board(self.fen)


@dataclass(frozen=True)
class PositionSet:
    name: str
    positions: tuple[Position, ...]
    generator: dict[str, Any] = field(default_factory=dict)

    def by_id(self) -> dict[str, Position]:
        return {p.id: p for p in self.positions}


def _mc_from_dict(d: Any, where: str, board: chess.Board) -> MultipleChoice | None:
    if d is None:
        return None
    try:
        cands = tuple(d["candidates"])
        answer = d["answer"]
    except (TypeError, KeyError) as exc:
        raise PositionSetError(
            f"{where}: multiple choice needs candidates and answer ({exc})"
        ) from None
    for uci in cands:
        if chess.Move.from_uci(uci) not in board.legal_moves:
            raise PositionSetError(f"{where}: candidate {uci!r} is illegal")
    if answer not in cands:
        raise PositionSetError(f"{where}: answer {answer!r} is not a candidate")
    return MultipleChoice(cands, answer)


def position_from_dict(d: dict[str, Any], where: str) -> Position:
    pid = d.get("id")
    if not isinstance(pid, str) or not pid:
        raise PositionSetError(f"{where}: field id is missing")
    where = f"{where} (position {pid})"
    try:
        board = chess.Board(d.get("fen", ""))
    except ValueError as exc:
        raise PositionSetError(f"{where}: field fen is not a valid FEN ({exc})") from None
    if not board.is_valid() or board.is_game_over():
        raise PositionSetError(f"{where}: field fen is not a playable position")
    best = d.get("best_move", "")
    try:
        if chess.Move.from_uci(best) not in board.legal_moves:
            raise ValueError
    except ValueError:
        raise PositionSetError(f"{where}: field best_move {best!r} is not a legal move") from None
    values = {str(k): int(v) for k, v in (d.get("move_values") or {}).items()}
    sq = d.get("piece_square")
    if sq is not None and (
        sq not in chess.SQUARE_NAMES or board.piece_at(chess.parse_square(sq)) is None
    ):
        raise PositionSetError(f"{where}: field piece_square {sq!r} holds no piece")
    return Position(
        id=pid,
        fen=board.fen(),
        best_move=best,
        cp=int(d.get("cp", 0)),
        move_values=values,
        mc_best=_mc_from_dict(d.get("mc_best"), f"{where} field mc_best", board),
        mc_worst=_mc_from_dict(d.get("mc_worst"), f"{where} field mc_worst", board),
        piece_square=sq,
    )


def load_position_set(path: str | os.PathLike[str]) -> PositionSet:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionSetError(f"{p}: position set not found") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PositionSetError(f"{p}: not a JSON position set ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PositionSetError(f"{p}: field format must be {FORMAT!r}")
    raw = data.get("positions")
    if not isinstance(raw, list) or not raw:
        raise PositionSetError(f"{p}: field positions must be a non-empty list")
    positions = tuple(position_from_dict(d, f"{p} positions[{i}]") for i, d in enumerate(raw))
    ids = [x.id for x in positions]
    if len(set(ids)) != len(ids):
        raise PositionSetError(f"{p}: duplicate position ids")
    return PositionSet(
        name=str(data.get("name", p.stem)),
        positions=positions,
        generator=dict(data.get("generator") or {}),
    )


def position_set_to_json(ps: PositionSet) -> str:
    def pos(x: Position) -> dict[str, Any]:
        d = asdict(x)
        for k in ("mc_best", "mc_worst"):
            if d[k] is not None:
                d[k]["candidates"] = list(d[k]["candidates"])
        return d

    return (
        json.dumps(
            {
                "format": FORMAT,
                "name": ps.name,
                "generator": ps.generator,
                "positions": [pos(x) for x in ps.positions],
            },
            indent=1,
        )
        + "\n"
    )


def save_position_set(ps: PositionSet, path: str | os.PathLike[str]) -> None:
    """Written to a temporary file and renamed, so a failed write leaves no half file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(position_set_to_json(ps), encoding="utf-8")
    tmp.replace(p)


# --- generation ----------------------------------------------------------------------------


def multiple_choice(
    values: dict[str, int], *, worst: bool, rng: random.Random, answer: str | None = None
) -> MultipleChoice | None:
    """Five candidates whose answer (by default the best or worst move by value) is >= MC_GAP
    Win% better (or worse) than each other one."""
    if len(values) < MC_SIZE:
        return None
    wp = {m: win_percent(v) for m, v in values.items()}
    ordered = sorted(wp, key=lambda m: (wp[m], m), reverse=not worst)
    if answer is None:
        answer = ordered[0]
    ordered = [answer] + [m for m in ordered if m != answer]
    if worst:
        others = [m for m in ordered[1:] if wp[m] >= wp[answer] + MC_GAP]
    else:
        others = [m for m in ordered[1:] if wp[m] <= wp[answer] - MC_GAP]
    if len(others) < MC_SIZE - 1:
        return None
    cands = [answer, *rng.sample(others, MC_SIZE - 1)]
    rng.shuffle(cands)
    return MultipleChoice(tuple(cands), answer)


def _pick_piece(board: chess.Board, rng: random.Random) -> str | None:
    by_square: dict[int, int] = {}
    for m in board.legal_moves:
        by_square[m.from_square] = by_square.get(m.from_square, 0) + 1
    choices = sorted(sq for sq, n in by_square.items() if n >= 2) or sorted(by_square)
    return chess.square_name(rng.choice(choices)) if choices else None


def generate_position_set(
    analyzer: Analyzer,
    *,
    n: int,
    seed: int = 0,
    name: str = "generated",
    opening_plies: tuple[int, int] = (2, 8),
    play_plies: tuple[int, int] = (0, 50),
    max_abs_cp: int = 600,
    progress: Callable[[int], None] | None = None,
) -> PositionSet:
    """``n`` positions, each from its own game: random legal moves for the opening, then the
    engine against itself (deterministic at a node limit), stopping at a random ply. Positions
    already decided (|cp| > max_abs_cp) or with fewer than 5 legal moves are skipped."""
    rng = random.Random(seed)
    engine = analyzer.engine
    out: list[Position] = []
    seen: set[str] = set()
    attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > 50 * n:
            raise RuntimeError(f"generated only {len(out)} of {n} positions in {attempts} games")
        board = chess.Board()
        for _ in range(rng.randint(*opening_plies)):
            if board.is_game_over():
                break
            board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))
        for _ in range(rng.randint(*play_plies)):
            if board.is_game_over(claim_draw=True):
                break
            board.push(engine.play(board, limit=analyzer.limit))
        if board.is_game_over(claim_draw=True) or board.legal_moves.count() < MC_SIZE:
            continue
        fen = board.fen()
        if board.epd() in seen:
            continue
        best = analyzer.best(board)
        if best.best_move is None or abs(best.clamped_cp) > max_abs_cp:
            continue
        seen.add(board.epd())
        # capped at the best move's value: a restricted search may see deeper than the full one,
        # and the engine's top choice stays the reference answer
        values = {m: min(v, best.clamped_cp) for m, v in analyzer.all_move_values(board).items()}
        out.append(
            Position(
                id=f"{name}-{len(out) + 1:04d}",
                fen=fen,
                best_move=best.best_move,
                cp=best.clamped_cp,
                move_values=dict(sorted(values.items())),
                mc_best=multiple_choice(values, worst=False, rng=rng, answer=best.best_move),
                mc_worst=multiple_choice(values, worst=True, rng=rng),
                piece_square=_pick_piece(board, rng),
            )
        )
        if progress:
            progress(len(out))
    return PositionSet(
        name=name,
        positions=tuple(out),
        generator={
            "engine": engine.id,
            "limit": analyzer.limit.key(),
            "seed": seed,
            "n": n,
            "opening_plies": list(opening_plies),
            "play_plies": list(play_plies),
            "max_abs_cp": max_abs_cp,
        },
    )
