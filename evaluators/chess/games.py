"""One full game per item: the run's model against a builtin (Stockfish at a UCI_Elo level,
random) or another model. The game is checkpointed after every move (ctx.checkpoint), and a
retried item continues from ctx.resume without replaying a turn. An answer that is still
illegal or unparseable after the rethinks loses the game; a game still running after
``max_moves`` full moves is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import chess
import chess.pgn

from evaluators.base import EvalContext, EvaluationError, ItemKey, ItemOutcome, ModelConfig
from evaluators.chess.config import resolve_path
from evaluators.chess.players import Decision, builtin_decision, builtin_move, builtin_rng
from evaluators.chess.prompts import TEMPLATES, history_text, side_name
from evaluators.chess.rating import LADDER, choose_opponent, load_ladder
from evaluators.chess.tasks import _choose_move, move_record
from games.chess.analysis import Analyzer
from games.chess.formulas import game_accuracy
from games.chess.match import Result, game_over, score_for

MAX_TRANSCRIPT = 400  # entries kept: a long game keeps its first and latest exchanges


def game_key(opponent: str, index: int) -> str:
    return f"{opponent}#{index:03d}"


def parse_game_key(key: str) -> tuple[str, int]:
    name, _, idx = key.rpartition("#")
    if not name or not idx.isdigit():
        raise EvaluationError(f"not a game item key: {key!r}")
    return name, int(idx)


def _bounded(transcript: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(transcript) <= MAX_TRANSCRIPT:
        return transcript
    head = transcript[:50]
    return (
        head
        + [{"role": "note", "text": f"[{len(transcript) - MAX_TRANSCRIPT} entries left out]"}]
        + transcript[-(MAX_TRANSCRIPT - 51) :]
    )


def _white_cp(board: chess.Board, analyzer: Analyzer) -> int:
    """White's value of a position (a mate as +-1000), as Lichess's accuracy series holds it."""
    cp = analyzer.best(board).clamped_cp
    return cp if board.turn == chess.WHITE else -cp


def _ladder_opponent(
    config: Mapping[str, Any], ctx: EvalContext, state: dict[str, Any]
) -> dict[str, Any]:
    """The rung this adaptive game plays: chosen once, when the game starts, from the run's
    finished games (kept in the checkpoint, so a resumed game keeps its opponent)."""
    fit = load_ladder(resolve_path(config["ladder"]))[1]
    chosen = state.get("opponent")
    if chosen not in fit.ratings:
        finished = ctx.finished(("opponent", "points")) if ctx.finished is not None else []
        chosen = choose_opponent(fit, finished)
        state["opponent"] = chosen
    return {"player": chosen, "model": None, "elo": round(fit.ratings[chosen], 1), "name": chosen}


def evaluate_game(
    config: Mapping[str, Any],
    model: ModelConfig,
    item: ItemKey,
    ctx: EvalContext,
    analyzer: Analyzer,
) -> ItemOutcome:
    name, index = parse_game_key(item.key)
    state: dict[str, Any] = dict(ctx.resume or {})
    opponent: dict[str, Any] | None
    if name == LADDER:
        opponent = _ladder_opponent(config, ctx, state)
        name = opponent["name"]
    else:
        opponent = (
            next((o for o in config["opponents"] if o["name"] == name), None)
            if isinstance(config["opponents"], list)
            else None
        )
    if opponent is None:
        raise EvaluationError(f"opponent {name!r} is not in this benchmark")
    if opponent["model"]:
        if ctx.resolve_model is None:
            raise EvaluationError("model-vs-model games need ctx.resolve_model")
        opp_model: ModelConfig = ctx.resolve_model(opponent["model"])
    else:
        opp_model = ModelConfig(slug=opponent["player"], model=f"builtin/{opponent['player']}")
    model_white = index % 2 == 0
    moves: list[str] = list(state.get("moves", []))
    records: list[dict[str, Any]] = list(state.get("records", []))
    # White's value after every move; Lichess starts the series from a fixed 15 cp, so the
    # start position is not analysed (formulas.game_accuracy adds it)
    white_cp: list[int] = list(state.get("white_cp", []))
    transcript: list[dict[str, Any]] = list(state.get("transcript", []))
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
        if "white_cp" not in state:  # a checkpoint from before the series was kept in cp
            white_cp.append(_white_cp(board, analyzer))
    forfeit: str | None = state.get("forfeit")
    resumed_at = len(moves) if ctx.resume else None

    while forfeit is None and game_over(board, max_moves=config["max_moves"]) is None:
        ctx.check_cancelled()
        own = (board.turn == chess.WHITE) == model_white
        player = model if own else opp_model
        ply = len(board.move_stack)
        label = f"ply {ply + 1} ({'model' if own else 'opponent'})"
        if player.is_builtin:
            rng = builtin_rng(player.builtin_name, item.key, item.sample_index, ply)
            decision: Decision[chess.Move] = builtin_decision(
                builtin_move(player.builtin_name, board, analyzer, rng)
            )
        else:
            them = opp_model if own else model
            task = TEMPLATES["games"].format(side=side_name(board), opponent=them.slug)
            decision = _choose_move(
                ctx,
                player,
                board,
                task,
                analyzer,
                config,
                ItemKey(item.key, item.sample_index),
                transcript,
                history=history_text(chess.Board(), board.move_stack),
                label=label,
                ply=ply,
            )
        move = decision.answer
        if own or not player.is_builtin:
            rec = move_record(board, decision, move, analyzer, with_percentile=config["percentile"])
            rec.update({"ply": ply + 1, "by": "model" if own else "opponent"})
            records.append(rec)
        if move is None:
            forfeit = "white" if board.turn == chess.WHITE else "black"
        else:
            board.push(move)
            moves.append(move.uci())
            white_cp.append(_white_cp(board, analyzer))
        transcript = _bounded(transcript)
        ctx.checkpoint(
            {
                "opponent": name,
                "moves": list(moves),
                "records": list(records),
                "white_cp": list(white_cp),
                "transcript": list(transcript),
                "forfeit": forfeit,
            }
        )

    result: Result
    if forfeit is not None:
        result, reason = ("0-1" if forfeit == "white" else "1-0"), "illegal_move"
    else:
        end = game_over(board, max_moves=config["max_moves"])
        assert end is not None
        result, reason = end
    points = score_for(result, model_white)
    colour = "white" if model_white else "black"
    acc = game_accuracy(white_cp)[colour]
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = model.slug if model_white else opp_model.slug
    game.headers["Black"] = opp_model.slug if model_white else model.slug
    game.headers["Result"] = result
    transcript.append(
        {"role": "grading", "text": f"{result} ({reason}); the model played {colour}"}
    )
    model_records = [r for r in records if r["by"] == "model"]
    return ItemOutcome(
        score=points,
        scores={"points": points, "result": result},
        details={
            "task": "games",
            "opponent": name,
            "opponent_elo": opponent["elo"],
            "model_color": colour,
            "result": result,
            "reason": reason,
            "points": points,
            "plies": len(moves),
            "game_accuracy": acc,
            "moves": model_records,
            "opponent_moves": [r for r in records if r["by"] == "opponent"],
            "game_moves": moves,
            "pgn": str(game),
            "resumed_at_ply": resumed_at,
        },
        transcript=_bounded(transcript),
    )
