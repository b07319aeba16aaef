"""Chess pages: the dashboard (move tasks, Elo from games, puzzle accuracy by rating band) and the
position viewer of one item."""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go
from django.http import Http404

from evaluators.chess.board import BadPositionError, board_squares, item_positions, side_to_move
from leaderboard.family_pages import ENTRY_FIELDS, LAYOUT, TOP_ROWS, model_cell
from leaderboard.models import LeaderboardEntry
from leaderboard.page_cache import cached_page
from leaderboard.pages import chart, fmt, paginate, pct, pm, render_page, run_url
from leaderboard.tables import Cell, Column, Table
from leaderboard.views_items import SHOWN_CHARS, item_for_viewer

CHESS_CLASSES = ("best", "excellent", "good", "inaccuracy", "mistake", "blunder")
CHESS_COLOURS = ("#1a7f37", "#4caf50", "#9ccc65", "#f5c518", "#f08c00", "#c62828")


@cached_page
def chess(request):
    base = LeaderboardEntry.objects.filter(family="chess").select_related("model").only(*ENTRY_FIELDS)
    tasks = sorted(set(base.values_list("group", flat=True).distinct()))
    task = request.GET.get("task", "")
    if task:
        base = base.filter(group=task)
    # sorted and paged in the database: only the rows shown are loaded
    page = paginate(request, base.exclude(group="games").order_by("-score", "id"))
    move_entries = list(page.object_list)
    table = Table("chess-tasks", "Move tasks", [
        Column("model", "Model"), Column("task", "Task"), Column("score", "Score", numeric=True),
        Column("score_se", "SE", hidden=True), Column("accuracy", "Accuracy", numeric=True),
        Column("acpl", "ACPL", numeric=True, title="average centipawn loss"),
        Column("legal_first", "Legal first try", numeric=True), Column("legal_final", "Legal final", numeric=True),
        Column("hallucination", "Hallucination rate", numeric=True, optional=True),
        Column("parse_failures", "Parse failures", numeric=True, optional=True),
        Column("percentile", "Percentile rank", numeric=True, optional=True),
    ])
    for e in page.object_list:
        s = e.summary
        table.add(model=model_cell(e.model), task=Cell(e.group),
                  score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)), score_se=Cell(e.score_se),
                  accuracy=Cell(s.get("accuracy"), fmt(s.get("accuracy"), 1), href=run_url(e.run_id)),
                  acpl=Cell(s.get("acpl"), fmt(s.get("acpl"), 1), href=run_url(e.run_id)),
                  legal_first=Cell(s.get("legal_first_try"), pct(s.get("legal_first_try"))),
                  legal_final=Cell(s.get("legal_final"), pct(s.get("legal_final"))),
                  hallucination=Cell(s.get("hallucination_rate"), pct(s.get("hallucination_rate"))),
                  parse_failures=Cell(s.get("parse_failures")),
                  percentile=Cell(s.get("percentile_rank_mean"), fmt(s.get("percentile_rank_mean"), 1)))

    games = list(base.filter(group="games").order_by("-score", "id")[:TOP_ROWS]) if not request.GET.get("download") \
        else list(base.filter(group="games").order_by("-score", "id"))
    elo_table = Table("chess-elo", f"Games: Elo (top {TOP_ROWS})", [
        Column("model", "Model"), Column("elo", "Elo", numeric=True), Column("elo_se", "SE", hidden=True),
        Column("ci95", "95% interval", numeric=True), Column("wdl", "W / D / L", numeric=True),
    ])
    for e in games:
        s = e.summary
        elo_table.add(model=model_cell(e.model), elo=Cell(e.score, pm(e.score, e.score_se, 0), href=run_url(e.run_id)),
                      elo_se=Cell(e.score_se),
                      ci95=Cell([e.score_lo, e.score_hi], f"[{fmt(e.score_lo, 0)}, {fmt(e.score_hi, 0)}]"),
                      wdl=Cell([s.get("wins"), s.get("draws"), s.get("losses")],
                               f"{s.get('wins', '—')} / {s.get('draws', '—')} / {s.get('losses', '—')}"))

    puzzle_qs = base.filter(group="puzzles").order_by("-score", "id")
    puzzles = [e for e in (puzzle_qs if request.GET.get("download") else puzzle_qs[:TOP_ROWS])
               if isinstance(e.summary.get("puzzle_accuracy_by_band"), dict)]
    bands = sorted({b for e in puzzles for b in e.summary["puzzle_accuracy_by_band"]}, key=_band_key)
    band_table = Table("chess-puzzles", f"Puzzle accuracy by rating band (top {TOP_ROWS})",
                       [Column("model", "Model")] + [Column(b, b, numeric=True) for b in bands])
    for e in puzzles:
        cells: dict[str, Any] = {"model": model_cell(e.model)}
        for b in bands:
            band = e.summary["puzzle_accuracy_by_band"].get(b) or {}
            cells[b] = Cell(band.get("rate"), f"{pct(band.get('rate'), 0)} ({band.get('solved', 0)}/{band.get('n', 0)})",
                            href=run_url(e.run_id))
        band_table.add(**cells)

    charts = []
    # only runs whose moves were analysed (multiple choice and legal-move tasks have no classes)
    with_classes = [e for e in move_entries if isinstance(e.summary.get("move_classes"), dict)
                    and any(e.summary["move_classes"].values())][:25]
    if with_classes:
        fig = go.Figure()
        names = [f"{e.model.display_name} · {e.group}" for e in with_classes]
        totals = [sum(float(v or 0) for v in e.summary["move_classes"].values()) or 1.0 for e in with_classes]
        for cls, colour in zip(CHESS_CLASSES, CHESS_COLOURS):
            fig.add_bar(name=cls, x=names, marker_color=colour,
                        y=[100.0 * float(e.summary["move_classes"].get(cls) or 0) / t for e, t in zip(with_classes, totals)])
        fig.update_layout(barmode="stack", title="Move classes (% of moves)", **LAYOUT)
        fig.update_yaxes(range=[0, 100])
        charts.append(chart(fig, "chess-move-classes"))
    if games:
        fig = go.Figure(go.Scatter(
            x=[e.model.display_name for e in games], y=[e.score for e in games], mode="markers",
            error_y={"type": "data", "symmetric": False,
                         "array": [(e.score_hi - e.score) if e.score_hi is not None and e.score is not None else 0 for e in games],
                         "arrayminus": [(e.score - e.score_lo) if e.score_lo is not None and e.score is not None else 0 for e in games]}))
        fig.update_layout(title="Elo with 95% interval", **LAYOUT)
        charts.append(chart(fig, "chess-elo-chart"))
    if puzzles and bands:
        fig = go.Figure()
        for e in puzzles[:10]:
            fig.add_bar(name=e.model.display_name, x=bands,
                        y=[(e.summary["puzzle_accuracy_by_band"].get(b) or {}).get("rate") for b in bands])
        fig.update_layout(barmode="group", title="Puzzle accuracy by rating band", **LAYOUT)
        charts.append(chart(fig, "chess-puzzle-chart"))
    return render_page(request, "chess_positions/chess.html", {
        "page": page, "tasks": tasks, "task": task, "charts": charts,
    }, [table, elo_table, band_table])


def _band_key(band: str):
    import re

    digits = re.findall(r"\d+", band)
    return (int(digits[0]) if digits else 0, band.startswith(">"))


def _first(d: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if d.get(key) not in (None, ""):
            return d[key]
    return None


def position(request, pk: int):
    item = item_for_viewer(pk)
    if item.run.benchmark.family != "chess":
        raise Http404("not a chess item")
    positions = item_positions(dict(item.details or {}))
    try:
        index = int(request.GET.get("i", 0))
    except ValueError:
        index = 0
    index = max(0, min(index, len(positions) - 1)) if positions else 0
    context: dict[str, Any] = {"item": item, "run": item.run, "run_url": run_url(item.run_id),
                               "n": len(positions), "index": index, "error": ""}
    if positions:
        p = positions[index]
        analysis = p.get("analysis") if isinstance(p.get("analysis"), dict) else {}
        model_move = _first(p, "model_move", "move", "parsed_move", "played")
        best_move = _first(p, "best_move", "engine_best", "engine_move", "best") or _first(analysis, "best_move")
        reasoning = _first(p, "reasoning", "reply", "explanation")
        if reasoning is None:
            replies = [e.get("text") for e in (item.transcript or []) if isinstance(e, dict) and e.get("role") == "reply"]
            reasoning = replies[index] if index < len(replies) else (replies[-1] if replies else "")
        reasoning = reasoning if isinstance(reasoning, str) else json.dumps(reasoning, default=str)
        try:
            squares = board_squares(str(p["fen"]), model_move=model_move, best_move=best_move,
                                    flip=side_to_move(str(p["fen"])) == "black")
        except BadPositionError as exc:
            squares, context["error"] = [], str(exc)
        facts = {k: v for k, v in p.items()
                 if k not in ("fen", "reasoning", "reply", "explanation") and not isinstance(v, (dict, list))}
        # the engine's verdict on the move (evaluators.chess move records keep it under "analysis")
        facts.update({f"engine {k}": v for k, v in analysis.items() if not isinstance(v, (dict, list))})
        claims = p.get("claims")
        if isinstance(claims, list) and claims:
            facts["claims (false/total)"] = f"{p.get('claims_false', '?')}/{p.get('claims_total', len(claims))}"
        context.update({
            "fen": p["fen"], "squares": squares, "model_move": model_move, "best_move": best_move,
            "reasoning": reasoning[:SHOWN_CHARS], "reasoning_truncated": len(reasoning) > SHOWN_CHARS,
            "facts": sorted(facts.items()), "to_move": side_to_move(str(p["fen"])),
            "prev": index - 1 if index > 0 else None, "next": index + 1 if index + 1 < len(positions) else None,
        })
    return render_page(request, "chess_positions/position.html", context)
