"""The chess page's numbers that need explaining: the measured Elo ladder, each run's pairings,
censored Elo, faithfulness next to the hallucination rate, and what the move classes mean.

Everything shown comes from stored run metrics (evaluators.chess.aggregate) or from the ladder
file the games benchmark names (data/chess_ladder/, fitted once per process and cached).
"""

from __future__ import annotations

from typing import Any

from evaluators.base import ConfigError
from evaluators.chess.config import resolve_path
from evaluators.chess.rating import DEFAULT_LADDER, ladder_summary, load_ladder
from leaderboard.pages import fmt, pct
from leaderboard.tables import Cell, Column, Table

CLASSES_NOTE = (
    "Move classes: inaccuracy, mistake and blunder are Lichess's verdicts (lila Advice.scala: the loss of "
    "winning chances on uncapped centipawns, with its rules for lost and allowed mates); best (engine move or "
    "Win% drop < 0.5), excellent (< 2) and good (any other move Lichess does not judge) are Podium's own "
    "classes, not Lichess's. Accuracy and ACPL follow Lichess (AccuracyPercent.scala, AccuracyCP.scala) over "
    "the moves played; a decision that never became legal after every rethink has no move to analyse: it is "
    "counted as 'never legal', and 'accuracy (never legal = 0)' counts it as a 0."
)
FAITHFULNESS_NOTE = (
    "Unfaithful: the move the reasoning concludes for (its last concluding sentence, else the last move it "
    "names) is not the move played. No move: the reasoning names no move of the side to move. Both per run, "
    "with Wilson 95% intervals, next to the share of false claims about the position."
)


def rate_with_interval(rate: Any, ci: Any, digits: int = 1) -> tuple[str, str]:
    """('12.5%', '[8.1%, 18.0%]') for a rate and its interval."""
    if not isinstance(ci, (list, tuple)) or len(ci) != 2:
        return pct(rate, digits), ""
    return pct(rate, digits), f"[{pct(ci[0], digits)}, {pct(ci[1], digits)}]"


def elo_text(summary: dict[str, Any], score: Any, lo: Any, hi: Any) -> tuple[str, str]:
    """The Elo cell: the estimate and its 95% interval; only a bound when every game was lost or won."""
    ci = summary.get("elo_ci95")
    if isinstance(ci, (list, tuple)) and len(ci) == 2:
        lo, hi = ci
    censored = summary.get("elo_censored")
    if censored == "below":
        return f"< {fmt(hi, 0)}", f"every rated game lost; p(sweep) = ½ at {fmt(score, 0)}"
    if censored == "above":
        return f"> {fmt(lo, 0)}", f"every rated game won; p(sweep) = ½ at {fmt(score, 0)}"
    return fmt(score, 0), f"95% [{fmt(lo, 0)}, {fmt(hi, 0)}]"


def opponent_records(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's results per opponent, from the model's side: W/D/L with the opponent's measured
    rating (``pairings``), completed from ``by_opponent`` (opponents given an elo in the config;
    runs stored before W/D/L were kept per opponent have only games and points there, and their
    W/D/L stay None)."""
    out: dict[str, dict[str, Any]] = {}
    pairings = summary.get("pairings")
    for p in pairings if isinstance(pairings, list) else []:
        if not isinstance(p, dict) or p.get("opponent") is None:
            continue
        w, d, lo = (_count(p.get(k)) for k in ("wins", "draws", "losses"))
        out[str(p["opponent"])] = {
            "opponent": str(p["opponent"]),
            "wins": w,
            "draws": d,
            "losses": lo,
            "games": None if None in (w, d, lo) else w + d + lo,  # type: ignore[operator]
            "points": None if None in (w, d) else w + 0.5 * d,  # type: ignore[operator]
            "rating": p.get("rating"),
            "rating_se": p.get("rating_se"),
            "rating_kind": "measured" if p.get("rating") is not None else "unrated",
        }
    by_opponent = summary.get("by_opponent")
    for name, d in sorted(by_opponent.items()) if isinstance(by_opponent, dict) else []:
        if not isinstance(d, dict):
            continue
        row = out.setdefault(
            str(name),
            {
                "opponent": str(name),
                "wins": _count(d.get("wins")),
                "draws": _count(d.get("draws")),
                "losses": _count(d.get("losses")),
                "games": d.get("games"),
                "points": d.get("points"),
                "rating": None,
                "rating_se": None,
                "rating_kind": "unrated",
            },
        )
        if row["rating"] is None and d.get("elo") is not None:
            row.update(rating=d["elo"], rating_se=None, rating_kind="given")
    return sorted(out.values(), key=lambda r: r["opponent"])


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _rating_text(r: dict[str, Any]) -> str:
    if r["rating"] is None:
        return "unrated"
    if r["rating_kind"] == "given":
        return f"{fmt(r['rating'], 0)} given"
    return f"{fmt(r['rating'], 0)} ± {fmt(1.96 * r['rating_se'], 0) if r.get('rating_se') else '0'}"


def _wdl_text(r: dict[str, Any]) -> str:
    if None in (r["wins"], r["draws"], r["losses"]):
        return f"{fmt(r['points'], 1)}/{r['games']} pts"  # stored before W/D/L per opponent
    return f"{r['wins']}-{r['draws']}-{r['losses']}"


def opponents_table(games_entries: list[Any], model_cell) -> Table:
    """One row per model and opponent: W/D/L, points and the opponent's rating."""
    table = Table(
        "chess-opponents",
        "Games by opponent",
        [
            Column("model", "Model"),
            Column("opponent", "Opponent"),
            Column(
                "rating",
                "Opponent Elo",
                numeric=True,
                title="measured on the ladder (± 95%), given in the benchmark's config, or unrated",
            ),
            Column("rating_se", "Opponent Elo SE", hidden=True),
            Column("wins", "W", numeric=True, title="games the model won"),
            Column("draws", "D", numeric=True),
            Column("losses", "L", numeric=True, title="games the model lost"),
            Column("games", "Games", numeric=True, optional=True),
            Column("points", "Points", numeric=True, title="a draw counts half"),
            Column("rate", "Score", numeric=True, optional=True, title="points / games"),
        ],
        caption="The games of each model's games run (shown on the row above) per opponent, from "
        "the model's side. Runs stored before W/D/L were kept per opponent show only their "
        "points.",
        empty="No games played yet.",
    )
    for e in games_entries:
        for r in opponent_records(e.summary):
            games, points = r["games"], r["points"]
            table.add(
                model=model_cell(e.model),
                opponent=Cell(r["opponent"]),
                rating=Cell(r["rating"], _rating_text(r)),
                rating_se=Cell(r["rating_se"]),
                wins=Cell(r["wins"]),
                draws=Cell(r["draws"]),
                losses=Cell(r["losses"]),
                games=Cell(games),
                points=Cell(points, fmt(points, 1)),
                rate=Cell(
                    points / games if games and points is not None else None,
                    pct(points / games, 0) if games and points is not None else "—",
                ),
            )
    return table


def ladder_tables(path: str = DEFAULT_LADDER) -> list[Table]:
    """The measured ladder: each rung's rating with its 95% interval, and the round robin's W/D/L."""
    try:
        ladder, fit = load_ladder(resolve_path(path))
    except ConfigError:
        return []
    s = ladder_summary(ladder, fit)
    convention = (
        f"the mean of {', '.join(s['centre'])} is set to {fmt(s['centre_elo'], 0)}"
        if s["centre"]
        else f"{ladder.anchor} is fixed at {fmt(ladder.anchor_elo, 0)}"
    )
    rungs = Table(
        "chess-ladder",
        "The Elo ladder, measured here",
        [
            Column("player", "Opponent"),
            Column("rating", "Measured Elo", numeric=True),
            Column("ci", "95% interval"),
            Column("score", "Round robin points", numeric=True),
        ],
        caption=(
            f"{s['engine']} at {s['limit']} (the settings games use), round robin played {s['measured']}. "
            f"Maximum-likelihood Elo from the W/D/L below; only differences are measured, so {convention}. "
            "A UCI_Elo setting is a name, not a rating: the ratings here are what the games showed."
        ),
    )
    for p in sorted(s["players"], key=lambda p: (p["rating"] is None, p["rating"] or 0)):
        half = 1.96 * p["se"] if p["se"] else None
        rungs.add(
            player=Cell(p["name"]),
            rating=Cell(p["rating"], fmt(p["rating"], 0) if p["rating"] is not None else "unrated"),
            ci=Cell(
                [
                    None if half is None else p["rating"] - half,
                    None if half is None else p["rating"] + half,
                ],
                f"± {fmt(half, 0)}" if half is not None else "—",
            ),
            score=Cell(p["points"], f"{fmt(p['points'], 1)} / {p['games']}"),
        )
    pairs = Table(
        "chess-ladder-games",
        "The ladder's round robin",
        [
            Column("a", "Player"),
            Column("b", "Opponent"),
            Column("wdl", "W / D / L", numeric=True, split=("W", "D", "L")),
        ],
        caption="Every pairing's games, counted from the first player's side, colours alternating.",
    )
    for p in s["pairs"]:
        pairs.add(
            a=Cell(p["a"]),
            b=Cell(p["b"]),
            wdl=Cell(
                [p["wins"], p["draws"], p["losses"]], f"{p['wins']} / {p['draws']} / {p['losses']}"
            ),
        )
    return [rungs, pairs]


def model_reasoning_table(entries: list[Any], run_href) -> Table | None:
    """The model page's chess runs: false claims, unfaithful replies and reasoning without a move,
    side by side with their intervals (None when the model has no chess run with replies)."""
    rows = [
        e
        for e in entries
        if e.family == "chess"
        and (e.summary.get("faithfulness_n") or e.summary.get("claims_total"))
    ]
    if not rows:
        return None
    table = Table(
        "model-chess-reasoning",
        "Chess: what the reasoning says",
        [
            Column("benchmark", "Benchmark"),
            Column("hallucination", "False claims", numeric=True),
            Column("unfaithful", "Unfaithful", numeric=True),
            Column("no_move", "No move in reasoning", numeric=True),
            Column("judged", "Replies judged", numeric=True),
            Column("never_legal", "Never legal", numeric=True),
        ],
        caption=FAITHFULNESS_NOTE,
    )
    for e in rows:
        s = e.summary
        cells: dict[str, Any] = {}
        for key, rate, ci in (
            ("hallucination", "hallucination_rate", "hallucination_ci95"),
            ("unfaithful", "unfaithful_rate", "unfaithful_ci95"),
            ("no_move", "no_move_rate", "no_move_ci95"),
        ):
            shown, interval = rate_with_interval(s.get(rate), s.get(ci))
            cells[key] = Cell(s.get(rate), shown, sub=interval, href=run_href(e.run_id))
        table.add(
            benchmark=Cell(e.benchmark.slug, e.benchmark.name),
            judged=Cell(s.get("faithfulness_n")),
            never_legal=Cell(s.get("never_legal")),
            **cells,
        )
    return table
