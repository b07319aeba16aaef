"""The Hanabi family evaluator: one item = one game, checkpointed after every move."""

from __future__ import annotations

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
)
from evaluators.hanabi import config as cfg
from evaluators.hanabi.players import TurnRecord, bot_turn, llm_turn
from evaluators.hanabi.prompts import PROMPT_VERSION, TEMPLATE_HASH, Memory
from evaluators.hanabi.regret import game_regrets
from evaluators.hanabi.regret import mean_regret as mean_regret_of
from evaluators.stats import mean_se as _mean_se
from games.hanabi import HanabiGame, IllegalMoveError
from games.hanabi.bots import BOT_CLASSES

GRADER_VERSION = "hanabi-grader-1"
CHECKPOINT_VERSION = 1
MAX_TURNS = 400  # HLE games end far sooner (at most ~90 turns); a guard against a loop


class HanabiEvaluator:
    family = "hanabi"

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return cfg.validate_config(config)

    def items(self, config: Mapping[str, Any], *, samples: int) -> list[ItemKey]:
        return cfg.item_keys(cfg.validate_config(config), samples)

    def spec(self, config: Mapping[str, Any]) -> dict[str, Any]:
        import pyspiel

        return {
            "family": "hanabi",
            "prompt_version": PROMPT_VERSION,
            "prompt_template_hash": TEMPLATE_HASH,
            "grader_version": GRADER_VERSION,
            "rules": "OpenSpiel hanabi (HLE)",
            "open_spiel_version": getattr(pyspiel, "__version__", None),
            "config": cfg.validate_config(config),
        }

    # ----- one game -----------------------------------------------------------------------

    def _resolve(self, slug: str, model: ModelConfig, ctx: EvalContext) -> ModelConfig:
        if slug == model.slug:
            return model
        if ctx.resolve_model is None:
            raise EvaluationError(f"cross-play partner {slug!r} cannot be resolved here")
        return ctx.resolve_model(slug)

    def evaluate(
        self, *, config: Mapping[str, Any], model: ModelConfig, item: ItemKey, ctx: EvalContext
    ) -> ItemOutcome:
        conf = cfg.validate_config(config)
        try:
            seed, partner = cfg.parse_item_key(item.key, conf)
        except ConfigError as exc:
            raise EvaluationError(str(exc)) from exc
        players = conf["players"]
        seat_slugs = cfg.seat_assignment(players, seed, model.slug, partner)
        agents = [self._resolve(s, model, ctx) for s in seat_slugs]
        for agent in agents:
            if agent.is_builtin and agent.builtin_name not in BOT_CLASSES:
                raise EvaluationError(f"{agent.slug}: no Hanabi bot named {agent.builtin_name!r}")
        if any(not a.is_builtin for a in agents) and conf["setting"] is None:
            raise EvaluationError(
                "setting: a language model needs a prompt setting "
                "(watson, sherlock or mycroft), this benchmark has none"
            )

        records: list[TurnRecord] = []
        memory: dict[int, Memory] = {}
        transcript: list[dict[str, Any]] = []
        resume = ctx.resume
        if resume and resume.get("version") == CHECKPOINT_VERSION and resume.get("seed") == seed:
            records = [TurnRecord.from_json(r) for r in resume["moves"]]
            memory = {int(k): Memory.from_json(v) for k, v in resume.get("memory", {}).items()}
            transcript = list(resume.get("transcript", []))
            transcript.append({"role": "note", "text": f"resumed after turn {len(records)}"})
        try:
            game = HanabiGame.replay(seed, players, [r.move for r in records])
        except IllegalMoveError as exc:
            raise EvaluationError(f"checkpoint of {item.key} does not replay: {exc}") from exc

        while not game.is_terminal():
            if game.turn >= MAX_TURNS:
                raise EvaluationError(f"{item.key}: game did not end within {MAX_TURNS} turns")
            ctx.check_cancelled()
            seat = game.current_player
            agent = agents[seat]
            if agent.is_builtin:
                record = bot_turn(game, seat, agent, seed)
            else:
                record, new_memory = llm_turn(
                    game,
                    seat,
                    agent,
                    setting=conf["setting"],
                    memory=memory.get(seat),
                    ctx=ctx,
                    sample_index=item.sample_index,
                    fallback=conf["fallback"],
                    max_reasks=conf["max_reasks"],
                    transcript=transcript,
                    max_reply_tokens=conf.get("max_reply_tokens"),
                )
                if new_memory is not None:
                    memory[seat] = new_memory
            applied = game.apply(record.move)
            transcript.append(
                {
                    "role": "move",
                    "turn": record.turn,
                    "seat": seat,
                    "agent": agent.slug,
                    "text": applied.describe(),
                    "move": record.move,
                    "fallback": record.fallback,
                }
            )
            records.append(record)
            if agent.is_builtin:
                # Bot moves are a pure function of (seed, state): a resumed game recomputes them
                # identically, so only the turns that cost a model call need saving.
                continue
            ctx.checkpoint(
                {
                    "version": CHECKPOINT_VERSION,
                    "seed": seed,
                    "players": players,
                    "moves": [r.to_json() for r in records],
                    "memory": {str(k): v.to_json() for k, v in memory.items()},
                    "transcript": transcript,
                }
            )
        return self._outcome(conf, game, records, seat_slugs, model, transcript)

    def _outcome(
        self,
        conf: Mapping[str, Any],
        game: HanabiGame,
        records: list[TurnRecord],
        seat_slugs: list[str],
        model: ModelConfig,
        transcript: list[dict[str, Any]],
    ) -> ItemOutcome:
        moves = [r.to_json() for r in records]
        model_seats = [s for s, slug in enumerate(seat_slugs) if slug == model.slug]
        mean_regret = mean_regret_se = None
        if conf["regret"]["enabled"]:
            reg = conf["regret"]
            regrets = game_regrets(
                game.seed,
                game.players,
                game.moves,
                set(model_seats),
                team=reg["team"],
                rollouts=reg["rollouts"],
                max_candidates=reg["max_candidates"],
            )
            by_turn = {r.turn: r for r in regrets}
            for m in moves:
                r = by_turn.get(m["turn"])
                if r is not None:
                    m["regret"] = r.to_json()
            mean_regret, mean_regret_se = mean_regret_of(regrets)
        mine = [r for r in records if r.seat in model_seats]
        scores = {
            "fireworks_score": game.fireworks_score,
            "hle_score": game.hle_score,
            "lives_left": game.lives,
            "end_reason": game.end_reason(),
            "perfect": game.fireworks_score == 25,
            "bomb": game.end_reason() == "bomb",
            "turns": game.turn,
            "invalid_replies": sum(r.invalid_replies for r in mine),
            "fallbacks": sum(r.fallback for r in mine),
            "model_moves": len(mine),
            "calls": sum(r.calls for r in records),
            "input_tokens": sum(r.input_tokens for r in records),
            "output_tokens": sum(r.output_tokens for r in records),
            "reasoning_tokens": sum(r.reasoning_tokens for r in records),
            "cost_usd": sum(r.cost_usd for r in records),
            "cost_unknown_calls": sum(r.cost_unknown for r in records),
            "latency_s": sum(r.latency_s for r in records),
            "mean_regret": mean_regret,
            "mean_regret_se": mean_regret_se,
        }
        details = {
            "seed": game.seed,
            "players": game.players,
            "setting": conf["setting"] if not model.is_builtin else None,
            "mode": conf["mode"],
            "seat_models": seat_slugs,
            "model_seats": model_seats,
            "fireworks": list(game.fireworks),
            "moves": moves,
        }
        # the headline is HLE's score (0 when the last life is lost), as the study and HLE
        # count it; the fireworks total (cards kept on a bomb-out) is secondary
        return ItemOutcome(
            score=float(game.hle_score), scores=scores, details=details, transcript=transcript
        )

    # ----- a run --------------------------------------------------------------------------

    def aggregate(
        self, *, config: Mapping[str, Any], outcomes: Sequence[StoredOutcome]
    ) -> dict[str, Any]:
        conf = cfg.validate_config(config)
        done = [o for o in outcomes if o.state == "done"]
        hle = [float(o.scores.get("hle_score", 0)) for o in done]
        fw = [float(o.scores.get("fireworks_score", 0)) for o in done]
        score, score_se = _mean_se(hle)
        fw_mean, fw_se = _mean_se(fw)
        # regret over every analysed move of the run (the SE spans moves and rollout noise)
        regrets = [
            float(m["regret"]["regret"])
            for o in done
            for m in o.details.get("moves", [])
            if isinstance(m.get("regret"), dict) and "regret_se" in m["regret"]
        ]
        regret_mean, regret_se = _mean_se(regrets)
        settings = {o.details.get("setting") for o in done}
        n = len(done)
        return {
            "score": score,
            "score_se": score_se,
            "n_items": len(outcomes),
            "n_failed": sum(o.state == "failed" for o in outcomes),
            "games": n,
            "players": conf["players"],
            "setting": settings.pop() if len(settings) == 1 else conf["setting"],
            "mode": conf["mode"],
            "partners": conf["partners"],
            "mean_hle_score": score,  # the same as "score": the headline, named
            "hle_score_se": score_se,
            "mean_fireworks_score": fw_mean,  # secondary: cards kept when the last life is lost
            "fireworks_score_se": fw_se,
            "perfect_rate": sum(bool(o.scores.get("perfect")) for o in done) / n if n else None,
            "bomb_rate": sum(bool(o.scores.get("bomb")) for o in done) / n if n else None,
            "mean_turns": sum(o.scores.get("turns", 0) for o in done) / n if n else None,
            "mean_lives_left": sum(o.scores.get("lives_left", 0) for o in done) / n if n else None,
            "invalid_replies": sum(int(o.scores.get("invalid_replies", 0)) for o in done),
            "fallbacks": sum(int(o.scores.get("fallbacks", 0)) for o in done),
            "model_moves": sum(int(o.scores.get("model_moves", 0)) for o in done),
            "mean_regret": regret_mean,
            "mean_regret_se": regret_se,
            "regret_moves": len(regrets),
            "input_tokens": sum(int(o.scores.get("input_tokens", 0)) for o in done),
            "output_tokens": sum(int(o.scores.get("output_tokens", 0)) for o in done),
            "cost_usd": sum(float(o.scores.get("cost_usd", 0.0)) for o in done),
            "end_reasons": {
                r: sum(o.scores.get("end_reason") == r for o in done)
                for r in ("perfect", "bomb", "deck")
            },
        }
