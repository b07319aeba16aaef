"""The Nim evaluator: one item = one game from a seeded start position, the model moving first
against a built-in opponent. Score 1 for a win, 0 for a loss (an illegal move loses)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from evaluators.base import (
    ConfigError,
    EvalContext,
    EvaluationError,
    ItemKey,
    ItemOutcome,
    ModelConfig,
    StoredOutcome,
    stable_hash,
)
from evaluators.stats import mean_se
from tests.families.nim import game

PROMPT = (
    "You are playing Nim. Heaps: {heaps}. On your turn take one or more objects from one heap; "
    "whoever takes the last object wins. Answer with 'take N from heap K' (heaps numbered from 1)."
)
PLAYERS = {"optimal": game.optimal_move, "random": game.random_move}
DEFAULTS = {"positions": 4, "heaps": 3, "max_heap": 5, "opponent": "optimal"}


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(config, Mapping):
        raise ConfigError("config must be an object")
    unknown = set(config) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown field(s) {sorted(unknown)}; allowed: {sorted(DEFAULTS)}")
    conf = {**DEFAULTS, **config}
    for name in ("positions", "heaps", "max_heap"):
        value = conf[name]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 50:
            raise ConfigError(f"field {name!r}: an integer from 1 to 50, got {value!r}")
    if conf["opponent"] not in PLAYERS:
        raise ConfigError(f"field 'opponent': one of {sorted(PLAYERS)}, got {conf['opponent']!r}")
    return conf


class NimEvaluator:
    family = "nim"

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return validate_config(config)

    def items(self, config: Mapping[str, Any], *, samples: int) -> list[ItemKey]:
        conf = validate_config(config)
        return [ItemKey(f"pos-{i}", s) for i in range(conf["positions"]) for s in range(samples)]

    def spec(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "prompt_template_hash": stable_hash(PROMPT),
            "grader_version": "nim-1",
            "config": validate_config(config),
        }

    def evaluate(
        self, *, config: Mapping[str, Any], model: ModelConfig, item: ItemKey, ctx: EvalContext
    ) -> ItemOutcome:
        conf = validate_config(config)
        try:
            seed = int(item.key.removeprefix("pos-"))
        except ValueError as exc:
            raise EvaluationError(f"item key {item.key!r} is not pos-<n>") from exc
        heaps = game.start_position(seed, heaps=conf["heaps"], max_heap=conf["max_heap"])
        rng = random.Random(f"{seed}:{item.sample_index}")
        opponent = PLAYERS[conf["opponent"]]
        details: dict[str, Any] = {"start": list(heaps), "moves": [], "opponent": conf["opponent"]}
        transcript: list[dict[str, Any]] = []
        mover = "model"
        while any(heaps):
            ctx.check_cancelled()
            if mover == "model":
                try:
                    move = self._model_move(model, heaps, rng, ctx, item, transcript)
                    heaps = game.apply(heaps, move)
                except game.IllegalMoveError as exc:
                    details.update(winner="opponent", illegal=str(exc))
                    return ItemOutcome(0.0, {"win": False, "illegal": True}, details, transcript)
            else:
                move = opponent(heaps, rng)
                heaps = game.apply(heaps, move)
            details["moves"].append(
                {"by": mover, "heap": move[0] + 1, "take": move[1], "heaps": list(heaps)}
            )
            winner = mover
            mover = "opponent" if mover == "model" else "model"
        details["winner"] = winner
        won = winner == "model"
        return ItemOutcome(1.0 if won else 0.0, {"win": won, "illegal": False}, details, transcript)

    def _model_move(
        self,
        model: ModelConfig,
        heaps: game.Heaps,
        rng: random.Random,
        ctx: EvalContext,
        item: ItemKey,
        transcript: list[dict[str, Any]],
    ) -> game.Move:
        if model.is_builtin:
            name = model.builtin_name.removeprefix("nim-")
            if name not in PLAYERS:
                raise EvaluationError(f"no Nim player named {model.builtin_name!r}")
            return PLAYERS[name](heaps, rng)
        prompt = PROMPT.format(heaps=list(heaps))
        reply = ctx.generate(
            [{"role": "user", "content": prompt}], model=model, sample_index=item.sample_index
        ).text
        transcript += [{"role": "prompt", "text": prompt}, {"role": "reply", "text": reply}]
        return game.parse_move(reply)

    def aggregate(
        self, *, config: Mapping[str, Any], outcomes: Sequence[StoredOutcome]
    ) -> dict[str, Any]:
        conf = validate_config(config)
        done = [o for o in outcomes if o.state == "done"]
        score, se = mean_se([100.0 * float(o.score or 0.0) for o in done])
        return {
            "score": score,
            "score_se": se,
            "n_items": len(outcomes),
            "n_failed": len(outcomes) - len(done),
            "games": len(done),
            "wins": sum(bool(o.scores.get("win")) for o in done),
            "illegal": sum(bool(o.scores.get("illegal")) for o in done),
            "opponent": conf["opponent"],
        }


def game_view(details: dict[str, Any]) -> dict[str, Any]:
    """The API's view of a Nim item (FamilySpec.game)."""
    if not isinstance(details.get("start"), list) or not isinstance(details.get("moves"), list):
        raise ValueError("details hold no Nim game (start and moves)")
    return {"start": details["start"], "moves": details["moves"], "winner": details.get("winner")}
