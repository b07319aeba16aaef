"""Run-level metrics of a chess run (the Run.metrics contract for chess)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from evaluators.base import StoredOutcome
from evaluators.stats import mean_se as _mean_se
from games.chess.elo import GameResult, estimate_elo
from games.chess.formulas import MOVE_CLASSES, acpl
from games.chess.puzzles import accuracy_by_band


def aggregate(task: str, outcomes: Sequence[StoredOutcome]) -> dict[str, Any]:
    done = [o for o in outcomes if o.state == "done"]
    moves: list[Mapping[str, Any]] = [m for o in done for m in o.details.get("moves", [])]
    decided = [m for m in moves if not m.get("builtin")]
    analysed = [m["analysis"] for m in moves if m.get("analysis")]
    claims_total = sum(m.get("claims_total", 0) for m in decided)
    claims_false = sum(m.get("claims_false", 0) for m in decided)
    legality_applies = task != "legal_moves"
    metrics: dict[str, Any] = {
        "task": task,
        "n_items": len(outcomes),
        "n_failed": sum(1 for o in outcomes if o.state == "failed"),
        "n_moves": len(moves),
        "accuracy": _mean_se([a["accuracy"] for a in analysed])[0],
        "acpl": acpl([a["cp_loss"] for a in analysed]),
        "move_classes": {c: sum(1 for a in analysed if a["move_class"] == c) for c in MOVE_CLASSES},
        "legal_first_try": (sum(1 for m in moves if m["legal_first_try"]) / len(moves))
        if moves and legality_applies else None,
        "legal_final": (sum(1 for m in moves if m["legal_final"]) / len(moves))
        if moves and legality_applies else None,
        "parse_failures": sum(m.get("parse_failures", 0) for m in moves),
        "illegal_attempts": sum(m.get("illegal_attempts", 0) for m in moves),
        "claims_total": claims_total,
        "claims_false": claims_false,
        "hallucination_rate": claims_false / claims_total if claims_total else None,
        "percentile_rank_mean": _mean_se([a["percentile"] for a in analysed if a.get("percentile") is not None])[0],
    }
    if task == "games":
        points = [float(o.details["points"]) for o in done]
        rated = [GameResult(float(o.details["opponent_elo"]), float(o.details["points"]))
                 for o in done if o.details.get("opponent_elo") is not None]
        est = estimate_elo(rated) if rated else None
        accs = [o.details["game_accuracy"] for o in done if o.details.get("game_accuracy") is not None]
        metrics.update({
            "games": len(done), "wins": points.count(1.0), "draws": points.count(0.5), "losses": points.count(0.0),
            "elo": est.elo if est else None, "elo_ci95": list(est.ci95) if est else None,
            "score": est.elo if est else None, "score_se": est.se if est else None,
            "points_rate": sum(points) / len(points) if points else None,
            "accuracy": sum(accs) / len(accs) if accs else None,  # Lichess game accuracy, mean over games
            "by_opponent": _by_opponent(done),
        })
        return metrics
    scores = [float(o.score) for o in done if o.score is not None]
    mean, se = _mean_se(scores)
    if task != "legal_moves" and scores:  # rates: the binomial standard error
        p = mean / 100.0 if mean is not None else 0.0
        se = 100.0 * math.sqrt(p * (1 - p) / len(scores))
    metrics.update({"score": mean, "score_se": se})
    if task == "puzzles":
        metrics["puzzle_accuracy_by_band"] = accuracy_by_band(
            [(int(o.details["rating"]), bool(o.details["solved"])) for o in done])
    if task == "legal_moves":
        metrics["mean_iou"] = mean / 100.0 if mean is not None else None
    return metrics


def _by_opponent(done: Sequence[StoredOutcome]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for o in done:
        d = out.setdefault(o.details["opponent"], {"games": 0, "points": 0.0, "elo": o.details.get("opponent_elo")})
        d["games"] += 1
        d["points"] += float(o.details["points"])
    return out
