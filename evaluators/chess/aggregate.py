"""Run-level metrics of a chess run (the Run.metrics contract for chess).

Moves that never became legal (no legal answer after every rethink) are not analysed, so
they cannot enter the Lichess accuracy, ACPL or the move classes; they are counted in the
class table as their own bucket ("never_legal"), and a second accuracy counts each of them as
0 (the worst a move can score), so both readings are shown. Rates come with Wilson 95 %
intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from evaluators.base import StoredOutcome
from evaluators.chess.config import resolve_path
from evaluators.chess.rating import load_ladder, rating_metrics
from evaluators.stats import mean_se as _mean_se
from games.chess.elo import WDL
from games.chess.formulas import MOVE_CLASSES, NEVER_LEGAL, acpl
from games.chess.puzzles import accuracy_by_band


def wilson(k: int, n: int, z: float = 1.959963984540054) -> list[float] | None:
    """Wilson score 95 % interval of a rate k / n (honest at 0 and n)."""
    if n <= 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _faithfulness(decided: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    judged = [m["faithfulness"] for m in decided if m.get("faithfulness")]
    n, differs, none = len(judged), judged.count("differs"), judged.count("no_move")
    return {
        "faithfulness_n": n,
        "unfaithful": differs,
        "unfaithful_rate": differs / n if n else None,
        "unfaithful_ci95": wilson(differs, n),
        "no_move": none,
        "no_move_rate": none / n if n else None,
        "no_move_ci95": wilson(none, n),
    }


def aggregate(config: Mapping[str, Any], outcomes: Sequence[StoredOutcome]) -> dict[str, Any]:
    task = str(config.get("task"))
    done = [o for o in outcomes if o.state == "done"]
    moves: list[Mapping[str, Any]] = [m for o in done for m in o.details.get("moves", [])]
    decided = [m for m in moves if not m.get("builtin")]
    analysed = [m["analysis"] for m in moves if m.get("analysis")]
    claims_total = sum(m.get("claims_total", 0) for m in decided)
    claims_false = sum(m.get("claims_false", 0) for m in decided)
    legality_applies = task != "legal_moves"
    never_legal = (
        sum(1 for m in decided if not m.get("legal_final", True)) if legality_applies else 0
    )
    accuracies = [a["accuracy"] for a in analysed]
    classes: dict[str, int] = {
        c: sum(1 for a in analysed if a["move_class"] == c) for c in MOVE_CLASSES
    }
    if legality_applies:
        classes[NEVER_LEGAL] = never_legal
    metrics: dict[str, Any] = {
        "task": task,
        "n_items": len(outcomes),
        "n_failed": sum(1 for o in outcomes if o.state == "failed"),
        "n_moves": len(moves),
        "accuracy": _mean_se(accuracies)[0],  # over the moves played (legal ones)
        "accuracy_never_legal_as_zero": _mean_se(accuracies + [0.0] * never_legal)[0],
        "acpl": acpl(
            [a["cp_loss"] for a in analysed]
        ),  # Lichess: rounded mean, losses capped at 2000
        "never_legal": never_legal,
        "move_classes": classes,
        "legal_first_try": (sum(1 for m in moves if m["legal_first_try"]) / len(moves))
        if moves and legality_applies
        else None,
        "legal_final": (sum(1 for m in moves if m["legal_final"]) / len(moves))
        if moves and legality_applies
        else None,
        "parse_failures": sum(m.get("parse_failures", 0) for m in moves),
        "illegal_attempts": sum(m.get("illegal_attempts", 0) for m in moves),
        "claims_total": claims_total,
        "claims_false": claims_false,
        "hallucination_rate": claims_false / claims_total if claims_total else None,
        "hallucination_ci95": wilson(claims_false, claims_total),
        **_faithfulness(decided),
        "percentile_rank_mean": _mean_se(
            [a["percentile"] for a in analysed if a.get("percentile") is not None]
        )[0],
    }
    if task == "games":
        points = [float(o.details["points"]) for o in done]
        overall = WDL.of_points(points)
        ladder = fit = None
        if config.get("ladder"):
            ladder, fit = load_ladder(resolve_path(str(config["ladder"])))
        rating = rating_metrics(fit, ladder, config, done)
        lo, hi = rating["elo_ci95"] or (None, None)
        accs = [
            o.details["game_accuracy"] for o in done if o.details.get("game_accuracy") is not None
        ]
        metrics.update(
            {
                "games": len(done),
                **overall.counts(),
                **rating,
                "score": rating["elo"],
                # the likelihood-ratio interval is not symmetric; its half width / 1.96 stands in
                # for a standard error where a table wants one (None when only a bound is known)
                "score_se": (hi - lo) / (2 * 1.959963984540054)
                if lo is not None and hi is not None
                else None,
                "points_rate": sum(points) / len(points) if points else None,
                "accuracy": sum(accs) / len(accs)
                if accs
                else None,  # Lichess game accuracy, mean over games
                "by_opponent": _by_opponent(done),
            }
        )
        return metrics
    scores = [float(o.score) for o in done if o.score is not None]
    mean, se = _mean_se(scores)
    if task != "legal_moves" and scores:  # rates: the binomial standard error
        p = mean / 100.0 if mean is not None else 0.0
        se = 100.0 * math.sqrt(p * (1 - p) / len(scores))
    metrics.update({"score": mean, "score_se": se})
    if task == "puzzles":
        metrics["puzzle_accuracy_by_band"] = accuracy_by_band(
            [(int(o.details["rating"]), bool(o.details["solved"])) for o in done]
        )
    if task == "legal_moves":
        metrics["mean_iou"] = mean / 100.0 if mean is not None else None
    return metrics


def _by_opponent(done: Sequence[StoredOutcome]) -> dict[str, dict[str, Any]]:
    """Per opponent: games, points and W/D/L (from the model's side), and the opponent's given elo."""
    points: dict[str, list[float]] = {}
    elo: dict[str, Any] = {}
    for o in done:
        points.setdefault(o.details["opponent"], []).append(float(o.details["points"]))
        elo.setdefault(o.details["opponent"], o.details.get("opponent_elo"))
    out: dict[str, dict[str, Any]] = {}
    for name, pts in points.items():
        wdl = WDL.of_points(pts)
        out[name] = {"games": wdl.games, "points": wdl.points, **wdl.counts(), "elo": elo[name]}
    return out
