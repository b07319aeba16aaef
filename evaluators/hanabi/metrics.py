"""Hanabi's Run.metrics: the contract between HanabiEvaluator.aggregate and its readers
(leaderboard entries, the Hanabi page, the API, exports)."""

from __future__ import annotations

from evaluators.base import RunMetrics


class HanabiMetrics(RunMetrics, total=False):
    # score / score_se: the headline, the mean HLE score out of 25 (0 when the last life is lost)
    games: int  # finished games
    players: int
    setting: str | None  # watson / sherlock / mycroft; None for rule bots
    mode: str  # "self" or "cross"
    partners: list[str]  # cross-play partners (model or builtin slugs)
    mean_hle_score: float | None  # the same as score, named
    hle_score_se: float | None
    mean_fireworks_score: float | None  # secondary: cards kept when the last life is lost
    fireworks_score_se: float | None
    perfect_rate: float | None  # share of games scoring 25
    bomb_rate: float | None  # share of games ending on the last life lost
    mean_turns: float | None
    mean_lives_left: float | None
    invalid_replies: int
    fallbacks: int
    model_moves: int
    mean_regret: float | None  # move-level regret (evaluators.hanabi.regret), when measured
    mean_regret_se: float | None
    regret_moves: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    end_reasons: dict[str, int]  # perfect / bomb / deck -> games
