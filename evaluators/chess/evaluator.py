"""The chess family evaluator (evaluators.base.FamilyEvaluator)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from evaluators.base import EvalContext, ItemKey, ItemOutcome, ModelConfig, StoredOutcome
from evaluators.chess import config as cfg
from evaluators.chess import runtime
from evaluators.chess.aggregate import aggregate
from evaluators.chess.games import evaluate_game, game_key
from evaluators.chess.players import check_builtin
from evaluators.chess.prompts import TEMPLATE_HASH
from evaluators.chess.rating import LADDER
from evaluators.chess.tasks import (
    evaluate_best_move,
    evaluate_legal_moves,
    evaluate_multiple_choice,
    evaluate_puzzle,
)

GRADER_VERSION = "chess-grader/1"


class ChessEvaluator:
    family = "chess"

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return cfg.normalise(config)

    def items(self, config: Mapping[str, Any], *, samples: int) -> list[ItemKey]:
        c = cfg.normalise(config)
        task = c["task"]
        if task in cfg.POSITION_TASKS:
            keys = [p.id for p in cfg.usable_positions(cfg.position_set(c), task)]
        elif task == "puzzles":
            keys = [p.id for p in cfg.puzzles(c)]
        elif c["opponents"] == LADDER:  # adaptive: each game picks its rung when it starts
            keys = [game_key(LADDER, i) for i in range(c["games"])]
        else:
            keys = [
                game_key(o["name"], i)
                for o in c["opponents"]
                for i in range(c["games_per_opponent"])
            ]
        return [ItemKey(k, s) for s in range(max(1, samples)) for k in keys]

    def spec(self, config: Mapping[str, Any]) -> dict[str, Any]:
        c = cfg.normalise(config)
        data: dict[str, Any] = {}
        if c["task"] in cfg.POSITION_TASKS:
            ps = cfg.position_set(c)
            data = {"positions": c["positions"], "position_set": ps.name, "generator": ps.generator}
        elif c["task"] == "puzzles":
            data = {"puzzles": c["puzzles"]}
        elif c.get(
            "ladder"
        ):  # the ratings the run's Elo is measured against, traceable to the file
            path = cfg.resolve_path(c["ladder"])
            data = {
                "ladder": c["ladder"],
                "ladder_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            }
        return {
            "task": c["task"],
            "prompt_template_hash": TEMPLATE_HASH,
            "grader_version": GRADER_VERSION,
            "engine_limit": c["engine"],
            "config": c,
            **data,
        }

    def evaluate(
        self, *, config: Mapping[str, Any], model: ModelConfig, item: ItemKey, ctx: EvalContext
    ) -> ItemOutcome:
        c = cfg.normalise(config)
        if model.is_builtin:
            check_builtin(model.builtin_name)
        analyzer = runtime.analyzer(cfg.search_limit(c))
        task = c["task"]
        if task == "best_move":
            return evaluate_best_move(c, model, item, ctx, analyzer)
        if task in ("mc_best", "mc_worst"):
            return evaluate_multiple_choice(c, model, item, ctx, analyzer, worst=task == "mc_worst")
        if task == "legal_moves":
            return evaluate_legal_moves(c, model, item, ctx, analyzer)
        if task == "puzzles":
            return evaluate_puzzle(c, model, item, ctx, analyzer)
        return evaluate_game(c, model, item, ctx, analyzer)

    def aggregate(
        self, *, config: Mapping[str, Any], outcomes: Sequence[StoredOutcome]
    ) -> dict[str, Any]:
        return aggregate(cfg.normalise(config), outcomes)
