"""One item of a position task or a puzzle -> ItemOutcome.

Per-move records (details["moves"]) hold what the aggregate needs: the decision (attempts,
legality at first try and at the end, parse failures, illegal answers, claims) and, when a
legal move was played, its analysis (Win% before/after, drop, accuracy, class, cp loss,
percentile rank).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import chess

from evaluators.base import EvalContext, EvaluationError, ItemKey, ItemOutcome, ModelConfig
from evaluators.chess import config as cfg
from evaluators.chess import runtime
from evaluators.chess.players import (
    Decision,
    ask_model,
    builtin_choice,
    builtin_decision,
    builtin_move,
    builtin_piece_moves,
    builtin_rng,
)
from evaluators.chess.prompts import (
    TEMPLATES,
    AnswerError,
    build_messages,
    history_text,
    parse_move,
    parse_move_list,
    side_name,
)
from games.chess.analysis import Analyzer
from games.chess.formulas import percentile_rank
from games.chess.positions import Position, PositionSet
from games.chess.puzzles import Puzzle, rating_band, solver_move_ok


def move_record(
    board: chess.Board,
    decision: Decision[Any],
    move: chess.Move | None,
    analyzer: Analyzer,
    *,
    with_percentile: bool,
    stored_values: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "fen": board.fen(),
        "side": side_name(board).lower(),
        "move": move.uci() if move else None,
        "san": board.san(move) if move else None,
        "builtin": decision.builtin,
        **decision.record(),
        "analysis": None,
    }
    if move is not None:
        use_stored = bool(with_percentile and stored_values)
        score = analyzer.score_move(board, move, with_percentile=with_percentile and not use_stored)
        a = score.to_dict()
        if use_stored and stored_values is not None:
            values = {m: min(v, score.cp_best) for m, v in stored_values.items()}
            values[move.uci()] = score.cp_played
            a["percentile"] = round(percentile_rank(score.cp_played, list(values.values())), 3)
        rec["analysis"] = a
    return rec


def _choose_move(
    ctx: EvalContext,
    model: ModelConfig,
    board: chess.Board,
    task_text: str,
    analyzer: Analyzer,
    config: Mapping[str, Any],
    item: ItemKey,
    transcript: list[dict[str, Any]],
    *,
    history: str = "",
    label: str = "",
    ply: int = 0,
) -> Decision[chess.Move]:
    if model.is_builtin:
        rng = builtin_rng(model.builtin_name, item.key, item.sample_index, ply)
        return builtin_decision(builtin_move(model.builtin_name, board, analyzer, rng))
    messages = build_messages(
        board,
        task_text,
        history=history if config["history"] else "",
        ascii_board=config["ascii_board"],
    )
    return ask_model(
        ctx,
        model,
        messages,
        lambda text: parse_move(board, text),
        board=board,
        sample_index=item.sample_index,
        rethinks=config["rethinks"],
        transcript=transcript,
        label=label,
    )


def _stored_values(ps: PositionSet, analyzer: Analyzer) -> bool:
    """The set's stored move values are this engine's values at this limit (so reusable)."""
    return (
        ps.generator.get("engine") == analyzer.engine.id
        and ps.generator.get("limit") == analyzer.limit.key()
    )


def _position(config: Mapping[str, Any], item: ItemKey) -> tuple[PositionSet, Position]:
    ps = cfg.position_set(config)
    pos = ps.by_id().get(item.key)
    if pos is None:
        raise EvaluationError(f"position {item.key!r} is not in {config['positions']}")
    return ps, pos


def evaluate_best_move(
    config: Mapping[str, Any],
    model: ModelConfig,
    item: ItemKey,
    ctx: EvalContext,
    analyzer: Analyzer,
) -> ItemOutcome:
    ps, pos = _position(config, item)
    board = pos.board()
    transcript: list[dict[str, Any]] = []
    # the position's search runs while the model thinks (a built-in answers at once)
    prefetch = None if model.is_builtin else runtime.prefetch_best(analyzer, board)
    try:
        decision = _choose_move(
            ctx,
            model,
            board,
            TEMPLATES["best_move"].format(side=side_name(board)),
            analyzer,
            config,
            item,
            transcript,
        )
    finally:
        runtime.settle(prefetch)
    rec = move_record(
        board,
        decision,
        decision.answer,
        analyzer,
        with_percentile=config["percentile"],
        stored_values=pos.move_values if _stored_values(ps, analyzer) else None,
    )
    found = rec["analysis"] is not None and rec["analysis"]["move_class"] == "best"
    transcript.append({"role": "grading", "text": _grading_text(rec)})
    return ItemOutcome(
        score=100.0 if found else 0.0,
        scores={"best": found},
        details={"task": "best_move", "position_id": pos.id, "moves": [rec]},
        transcript=transcript,
    )


def _grading_text(rec: Mapping[str, Any]) -> str:
    a = rec.get("analysis")
    if a is None:
        return "no legal move after the rethinks"
    return (
        f"{a['san']}: {a['move_class']} (engine: {a['best_san']}), Win% {a['win_before']:.1f} -> "
        f"{a['win_after']:.1f}, accuracy {a['accuracy']:.1f}, cp loss {a['cp_loss']}"
    )


def evaluate_multiple_choice(
    config: Mapping[str, Any],
    model: ModelConfig,
    item: ItemKey,
    ctx: EvalContext,
    analyzer: Analyzer,
    *,
    worst: bool,
) -> ItemOutcome:
    _, pos = _position(config, item)
    mc = pos.mc_worst if worst else pos.mc_best
    if mc is None:
        raise EvaluationError(
            f"position {pos.id} has no {'worst' if worst else 'best'}-of-5 question"
        )
    board = pos.board()
    sans = {board.san(chess.Move.from_uci(c)): c for c in mc.candidates}
    transcript: list[dict[str, Any]] = []
    if model.is_builtin:
        rng = builtin_rng(model.builtin_name, item.key, item.sample_index)
        decision: Decision[str] = builtin_decision(
            builtin_choice(model.builtin_name, board, mc.candidates, analyzer, rng, worst=worst)
        )
    else:

        def parse(text: str) -> str:
            move = parse_move(board, text)
            if move.uci() not in mc.candidates:
                raise AnswerError(
                    "illegal", f"{board.san(move)} is not one of the candidates", board.san(move)
                )
            return move.uci()

        text = TEMPLATES["mc_worst" if worst else "mc_best"].format(
            side=side_name(board), candidates=", ".join(sans)
        )
        messages = build_messages(board, text, ascii_board=config["ascii_board"])
        decision = ask_model(
            ctx,
            model,
            messages,
            parse,
            board=board,
            sample_index=item.sample_index,
            rethinks=config["rethinks"],
            transcript=transcript,
        )
    right = decision.answer == mc.answer
    rec = {
        "fen": board.fen(),
        "side": side_name(board).lower(),
        "move": decision.answer,
        "builtin": decision.builtin,
        **decision.record(),
        "analysis": None,
        "candidates": list(mc.candidates),
        "answer": mc.answer,
        "correct": right,
    }
    transcript.append(
        {
            "role": "grading",
            "text": f"chose {decision.answer}, answer {mc.answer}: {'right' if right else 'wrong'}",
        }
    )
    task = "mc_worst" if worst else "mc_best"
    return ItemOutcome(
        score=100.0 if right else 0.0,
        scores={"correct": right},
        details={"task": task, "position_id": pos.id, "moves": [rec]},
        transcript=transcript,
    )


PIECE_NAMES = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}


def iou(a: set[str], b: set[str]) -> float:
    union = a | b
    return 1.0 if not union else len(a & b) / len(union)


def evaluate_legal_moves(
    config: Mapping[str, Any],
    model: ModelConfig,
    item: ItemKey,
    ctx: EvalContext,
    analyzer: Analyzer,
) -> ItemOutcome:
    _, pos = _position(config, item)
    if pos.piece_square is None:
        raise EvaluationError(f"position {pos.id} names no piece")
    board = pos.board()
    square = chess.parse_square(pos.piece_square)
    piece = board.piece_at(square)
    assert piece is not None
    truth = {m.uci() for m in board.legal_moves if m.from_square == square}
    transcript: list[dict[str, Any]] = []
    unread: list[str] = []
    if model.is_builtin:
        rng = builtin_rng(model.builtin_name, item.key, item.sample_index)
        decision: Decision[set[str]] = builtin_decision(
            builtin_piece_moves(model.builtin_name, board, square, rng)
        )
    else:

        def parse(text: str) -> set[str]:
            moves, bad = parse_move_list(board, text, square)
            unread[:] = bad
            return moves

        colour = "white" if piece.color == chess.WHITE else "black"
        text = TEMPLATES["legal_moves"].format(
            piece=f"{colour} {PIECE_NAMES[piece.piece_type]}", square=pos.piece_square
        )
        messages = build_messages(board, text, ascii_board=config["ascii_board"])
        decision = ask_model(
            ctx,
            model,
            messages,
            parse,
            board=board,
            sample_index=item.sample_index,
            rethinks=config["rethinks"],
            transcript=transcript,
        )
    named = decision.answer or set()
    score = iou(named, truth)
    rec = {
        "fen": board.fen(),
        "side": side_name(board).lower(),
        "builtin": decision.builtin,
        **decision.record(),
        "analysis": None,
        "square": pos.piece_square,
        "named": sorted(named),
        "truth": sorted(truth),
        "unread_tokens": unread,
        "iou": score,
    }
    transcript.append(
        {
            "role": "grading",
            "text": f"IoU {score:.3f}: named {sorted(named)}, legal {sorted(truth)}",
        }
    )
    return ItemOutcome(
        score=100.0 * score,
        scores={"iou": score},
        details={"task": "legal_moves", "position_id": pos.id, "moves": [rec]},
        transcript=transcript,
    )


def evaluate_puzzle(
    config: Mapping[str, Any],
    model: ModelConfig,
    item: ItemKey,
    ctx: EvalContext,
    analyzer: Analyzer,
) -> ItemOutcome:
    puzzle = {p.id: p for p in cfg.puzzles(config)}.get(item.key)
    if puzzle is None:
        raise EvaluationError(f"puzzle {item.key!r} is not in {config['puzzles']['csv']}")
    return play_puzzle(puzzle, config, model, item, ctx, analyzer)


def play_puzzle(
    puzzle: Puzzle,
    config: Mapping[str, Any],
    model: ModelConfig,
    item: ItemKey,
    ctx: EvalContext,
    analyzer: Analyzer,
) -> ItemOutcome:
    start = chess.Board(puzzle.fen)
    board = puzzle.start_board()
    transcript: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    solved = True
    for k, expected in enumerate(puzzle.solver_moves):
        history = history_text(start, board.move_stack)
        task = TEMPLATES["puzzles"].format(side=side_name(board))
        decision = _choose_move(
            ctx,
            model,
            board,
            task,
            analyzer,
            config,
            item,
            transcript,
            history=history,
            label=f"move {k + 1}",
            ply=k,
        )
        move = decision.answer
        rec = move_record(board, decision, move, analyzer, with_percentile=config["percentile"])
        rec["expected"] = expected
        rec["correct"] = move is not None and solver_move_ok(board, expected, move)
        records.append(rec)
        if not rec["correct"]:
            solved = False
            break
        assert move is not None
        board.push(move)
        if board.is_checkmate():
            break
        if 2 * k + 2 < len(puzzle.moves):
            board.push(chess.Move.from_uci(puzzle.moves[2 * k + 2]))
    transcript.append(
        {
            "role": "grading",
            "text": f"puzzle {puzzle.id} ({puzzle.rating}): {'solved' if solved else 'failed'}",
        }
    )
    return ItemOutcome(
        score=100.0 if solved else 0.0,
        scores={"solved": solved},
        details={
            "task": "puzzles",
            "puzzle_id": puzzle.id,
            "rating": puzzle.rating,
            "band": rating_band(puzzle.rating),
            "themes": list(puzzle.themes),
            "solved": solved,
            "moves": records,
        },
        transcript=transcript,
    )
