"""Chess pages: the dashboard (move tasks, Elo from games, puzzle accuracy by rating band) and the
position viewer of one item."""

from __future__ import annotations

import json
from typing import Any

import chess as pychess  # the page view below is named chess
import plotly.graph_objects as go
from django.http import Http404, HttpResponse

from chess_positions.numbers import (
    CLASSES_NOTE,
    FAITHFULNESS_NOTE,
    elo_text,
    ladder_tables,
    opponents_table,
    rate_with_interval,
)
from chess_positions.presenters import arrow, false_claims, game_view, position_facts
from evaluators.chess.board import (
    BadPositionError,
    board_squares,
    item_positions,
    move_squares,
    side_to_move,
)
from leaderboard.family_pages import LAYOUT, TOP_ROWS, family_entries, model_cell
from leaderboard.page_cache import cached_page
from leaderboard.pages import chart, fmt, paginate, pct, pm, render_page, run_url
from leaderboard.tables import Cell, Column, Table, column_group
from leaderboard.views_items import SHOWN_CHARS, item_for_viewer

CHESS_CLASSES = ("best", "excellent", "good", "inaccuracy", "mistake", "blunder", "never_legal")
CHESS_COLOURS = ("#1a7f37", "#4caf50", "#9ccc65", "#f5c518", "#f08c00", "#c62828", "#8c8c8c")


TASK_LABELS = {
    "best_move": "Best move",
    "mc_best": "Pick the best",
    "mc_worst": "Pick the worst",
    "legal_moves": "Legal moves",
    "puzzles": "Puzzles",
}


@cached_page
def chess(request):
    # every chess entry as plain rows, shared by all filters and pages until the read model changes
    rows_all = family_entries("chess")
    tasks = sorted({e.group for e in rows_all})
    task = request.GET.get("task", "")
    # one row per model, the tasks as columns
    move_tasks = [t for t in tasks if t != "games" and (not task or t == task)]
    by_model: dict[int, dict[str, Any]] = {}
    models: dict[int, Any] = {}
    for e in rows_all:
        by_model.setdefault(e.model_id, {})[e.group] = e
        models[e.model_id] = e.model

    def order(model_id: int):
        row = by_model[model_id]
        elo = row["games"].score if "games" in row else None
        first = next(
            (row[t].score for t in move_tasks if t in row and row[t].score is not None), None
        )
        return (
            elo is None,
            -(elo or 0),
            first is None,
            -(first or 0),
            models[model_id].display_name,
        )

    def by_score(entries):  # best first, unscored last
        return sorted(entries, key=lambda e: (e.score is None, -(e.score or 0.0)))

    page = paginate(request, sorted(by_model, key=order))
    columns = [Column("model", "Model")]
    for t in move_tasks:
        columns += column_group(
            Column(t, TASK_LABELS.get(t, t), numeric=True, title="score (%) ± SE; accuracy below"),
            ("se", "SE"),
            sep="_",
            prefix=t,
        )
    if "games" in tasks and (not task or task == "games"):
        columns += [
            Column(
                "elo",
                "Elo",
                numeric=True,
                title="maximum-likelihood Elo against the measured ladder; 95% likelihood-ratio "
                "interval below (a bound only when every rated game was lost or won)",
            ),
            Column("elo_se", "Elo SE", hidden=True),
            Column("elo_ci95", "Elo 95% interval", hidden=True, split=("low", "high")),
            Column("wdl", "W / D / L", numeric=True, split=("W", "D", "L")),
        ]
    table = Table(
        "chess-models",
        "Chess: one row per model",
        columns,
        caption="Each task column: the model's score on that task (% ± SE), accuracy below. "
        "Elo from games against the named opponents, whose ratings are measured by the "
        "ladder's round robin (below), with W/D/L overall; per opponent in the next table.",
    )
    page_games: list[Any] = []  # the games runs of this page's models, in the table's order
    for model_id in page.object_list:
        row = by_model.get(model_id, {})
        cells: dict[str, Any] = {"model": model_cell(models[model_id])}
        for t in move_tasks:
            e = row.get(t)
            if e is None:
                cells[t] = Cell(None)
                continue
            acc = e.summary.get("accuracy")
            cells[t] = Cell(
                e.score,
                pm(e.score, e.score_se, 1),
                href=run_url(e.run_id),
                sub=f"acc. {fmt(acc, 1)}" if acc is not None else "",
            )
            cells[f"{t}_se"] = Cell(e.score_se)
        g = row.get("games")
        if g is not None:
            page_games.append(g)
            s = g.summary
            shown, below = elo_text(s, g.score, g.score_lo, g.score_hi)
            cells.update(
                elo=Cell(g.score, shown, href=run_url(g.run_id), sub=below),
                elo_se=Cell(g.score_se),
                elo_ci95=Cell([g.score_lo, g.score_hi]),
                wdl=Cell(
                    [s.get("wins"), s.get("draws"), s.get("losses")],
                    f"{s.get('wins', '—')} / {s.get('draws', '—')} / {s.get('losses', '—')}",
                ),
            )
        table.add(**cells)

    # a download's page holds every model (paginate), so the file has every model's games
    opponents = opponents_table(page_games, model_cell)

    detail_all = by_score(
        e for e in rows_all if e.group != "games" and (not task or e.group == task)
    )
    detail_entries = detail_all if request.GET.get("download") else detail_all[:TOP_ROWS]
    move_entries = detail_entries
    details = Table(
        "chess-tasks",
        f"Move tasks in detail (top {TOP_ROWS} by score)",
        caption=CLASSES_NOTE + " " + FAITHFULNESS_NOTE,
        columns=[
            Column("model", "Model"),
            Column("task", "Task"),
            Column("score", "Score", numeric=True),
            Column("score_se", "SE", hidden=True),
            Column("accuracy", "Accuracy", numeric=True),
            Column("acpl", "ACPL", numeric=True, title="average centipawn loss"),
            Column("legal_first", "Legal first try", numeric=True),
            Column("legal_final", "Legal final", numeric=True),
            Column(
                "never_legal",
                "Never legal",
                numeric=True,
                optional=True,
                title="decisions with no legal move after every rethink (not in accuracy or ACPL)",
            ),
            Column("accuracy_nl0", "Accuracy (never legal = 0)", numeric=True, optional=True),
            Column(
                "hallucination",
                "Hallucination rate",
                numeric=True,
                optional=True,
                title="false claims / claims",
            ),
            Column(
                "unfaithful",
                "Unfaithful",
                numeric=True,
                optional=True,
                title="the reasoning concludes for another move than the one played",
            ),
            Column("no_move", "No move in reasoning", numeric=True, optional=True),
            Column("parse_failures", "Parse failures", numeric=True, optional=True),
            Column("percentile", "Percentile rank", numeric=True, optional=True),
        ],
    )
    for e in detail_entries:
        s = e.summary
        details.add(
            model=model_cell(e.model),
            task=Cell(e.group),
            score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
            score_se=Cell(e.score_se),
            accuracy=Cell(s.get("accuracy"), fmt(s.get("accuracy"), 1), href=run_url(e.run_id)),
            acpl=Cell(s.get("acpl"), fmt(s.get("acpl"), 1), href=run_url(e.run_id)),
            legal_first=Cell(s.get("legal_first_try"), pct(s.get("legal_first_try"))),
            legal_final=Cell(s.get("legal_final"), pct(s.get("legal_final"))),
            never_legal=Cell(s.get("never_legal")),
            accuracy_nl0=Cell(
                s.get("accuracy_never_legal_as_zero"), fmt(s.get("accuracy_never_legal_as_zero"), 1)
            ),
            hallucination=_rate_cell(s, "hallucination_rate", "hallucination_ci95"),
            unfaithful=_rate_cell(s, "unfaithful_rate", "unfaithful_ci95"),
            no_move=_rate_cell(s, "no_move_rate", "no_move_ci95"),
            parse_failures=Cell(s.get("parse_failures")),
            percentile=Cell(s.get("percentile_rank_mean"), fmt(s.get("percentile_rank_mean"), 1)),
        )
    games = by_score(e for e in rows_all if e.group == "games" and e.score is not None)[:TOP_ROWS]

    puzzle_all = by_score(e for e in rows_all if e.group == "puzzles")
    puzzles = [
        e
        for e in (puzzle_all if request.GET.get("download") else puzzle_all[:TOP_ROWS])
        if isinstance(e.summary.get("puzzle_accuracy_by_band"), dict)
    ]
    bands = sorted(
        {b for e in puzzles for b in e.summary["puzzle_accuracy_by_band"]}, key=_band_key
    )
    band_table = Table(
        "chess-puzzles",
        f"Puzzle accuracy by rating band (top {TOP_ROWS})",
        [Column("model", "Model")] + [Column(b, b, numeric=True) for b in bands],
    )
    for e in puzzles:
        cells: dict[str, Any] = {"model": model_cell(e.model)}
        for b in bands:
            band = e.summary["puzzle_accuracy_by_band"].get(b) or {}
            cells[b] = Cell(
                band.get("rate"),
                f"{pct(band.get('rate'), 0)} ({band.get('solved', 0)}/{band.get('n', 0)})",
                href=run_url(e.run_id),
            )
        band_table.add(**cells)

    charts = []
    # only runs whose moves were analysed (multiple choice and legal-move tasks have no classes)
    with_classes = [
        e
        for e in move_entries
        if isinstance(e.summary.get("move_classes"), dict)
        and any(e.summary["move_classes"].values())
    ][:25]
    if with_classes:
        fig = go.Figure()
        names = [f"{e.model.display_name} · {e.group}" for e in with_classes]
        totals = [
            sum(float(v or 0) for v in e.summary["move_classes"].values()) or 1.0
            for e in with_classes
        ]
        for cls, colour in zip(CHESS_CLASSES, CHESS_COLOURS):
            fig.add_bar(
                name=cls,
                x=names,
                marker_color=colour,
                y=[
                    100.0 * float(e.summary["move_classes"].get(cls) or 0) / t
                    for e, t in zip(with_classes, totals)
                ],
            )
        fig.update_layout(
            barmode="stack",
            title="Move classes (% of decisions; best/excellent/good are "
            "Podium's classes, the rest Lichess's)",
            **LAYOUT,
        )
        fig.update_yaxes(range=[0, 100])
        charts.append(chart(fig, "chess-move-classes"))
    if games:
        fig = go.Figure(
            go.Scatter(
                x=[e.model.display_name for e in games],
                y=[e.score for e in games],
                mode="markers",
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [
                        (e.score_hi - e.score)
                        if e.score_hi is not None and e.score is not None
                        else 0
                        for e in games
                    ],
                    "arrayminus": [
                        (e.score - e.score_lo)
                        if e.score_lo is not None and e.score is not None
                        else 0
                        for e in games
                    ],
                },
            )
        )
        fig.update_layout(title="Elo with 95% interval", **LAYOUT)
        charts.append(chart(fig, "chess-elo-chart"))
    if puzzles and bands:
        fig = go.Figure()
        for e in puzzles[:10]:
            fig.add_bar(
                name=e.model.display_name,
                x=bands,
                y=[(e.summary["puzzle_accuracy_by_band"].get(b) or {}).get("rate") for b in bands],
            )
        fig.update_layout(barmode="group", title="Puzzle accuracy by rating band", **LAYOUT)
        charts.append(chart(fig, "chess-puzzle-chart"))
    return render_page(
        request,
        "chess_positions/chess.html",
        {
            "page": page,
            "tasks": tasks,
            "task": task,
            "charts": charts,
        },
        [table, opponents, details, band_table, *ladder_tables()],
    )


def _rate_cell(summary: dict[str, Any], key: str, ci_key: str) -> Cell:
    shown, interval = rate_with_interval(summary.get(key), summary.get(ci_key))
    return Cell(summary.get(key), shown, sub=interval)


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
    details = dict(item.details or {})
    game = game_view(details)
    if game is not None and request.GET.get("format") == "pgn":
        response = HttpResponse(game["pgn"], content_type="application/x-chess-pgn; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="game-{item.pk}.pgn"'
        return response
    positions = item_positions(details)
    try:
        index = int(request.GET.get("i", 0))
    except ValueError:
        index = 0
    index = max(0, min(index, len(positions) - 1)) if positions else 0
    context: dict[str, Any] = {
        "item": item,
        "run": item.run,
        "run_url": run_url(item.run_id),
        "n": len(positions),
        "index": index,
        "error": "",
        "game": game,
        "charts": [],
    }
    if positions:
        p = positions[index]
        analysis: dict[str, Any] = p["analysis"] if isinstance(p.get("analysis"), dict) else {}
        model_move = _first(p, "model_move", "move", "parsed_move", "played")
        best_move = _first(p, "best_move", "engine_best", "engine_move", "best") or _first(
            analysis, "best_move"
        )
        reasoning = _first(p, "reasoning", "reply", "explanation")
        if reasoning is None:
            replies = [
                e.get("text")
                for e in (item.transcript or [])
                if isinstance(e, dict) and e.get("role") == "reply"
            ]
            reasoning = replies[index] if index < len(replies) else (replies[-1] if replies else "")
        reasoning = reasoning if isinstance(reasoning, str) else json.dumps(reasoning, default=str)
        fen = str(p["fen"])
        flip = side_to_move(fen) == "black"
        # the move that led here (games): the previous ply of the game
        last_move = None
        if game is not None and isinstance(p.get("ply"), int) and p["ply"] >= 2:
            last_move = details["game_moves"][p["ply"] - 2]
        try:
            squares = board_squares(fen, model_move=model_move, best_move=best_move, flip=flip)
            board = pychess.Board(fen)
            arrows = []
            for kind, text in (("best", best_move), ("model", model_move)):
                pair = move_squares(board, text)
                if pair:
                    arrows.append({"kind": kind, **arrow(*pair, flip)})
            last: tuple[str, str] | None = (last_move[:2], last_move[2:4]) if last_move else None
        except (BadPositionError, ValueError) as exc:
            squares, arrows, last, context["error"] = [], [], None, str(exc)
        cells = []
        for i, sq in enumerate(squares):
            cells.append(
                {
                    "sq": sq,
                    "rank": sq.name[1] if i % 8 == 0 else "",
                    "file": sq.name[0] if i >= 56 else "",
                    "last": last is not None and sq.name in last,
                }
            )
        context.update(
            {
                "fen": fen,
                "cells": cells,
                "arrows": arrows,
                "model_move": model_move,
                "best_move": best_move,
                "last_move": last_move,
                "reasoning": reasoning[:SHOWN_CHARS],
                "reasoning_truncated": len(reasoning) > SHOWN_CHARS,
                "facts": position_facts(p),
                "false_claims": false_claims(p),
                "to_move": side_to_move(fen),
                "ply": p.get("ply"),
                "prev": index - 1 if index > 0 else None,
                "next": index + 1 if index + 1 < len(positions) else None,
            }
        )
    if game is not None and game["win_plies"]:
        fig = go.Figure(
            go.Scatter(
                x=game["win_plies"],
                y=game["win_white"],
                mode="lines+markers",
                name="White's Win%",
                line={"color": "#1b1f24"},
                fill="tozeroy",
                fillcolor="rgba(220,220,220,0.6)",
                hovertemplate="ply %{x}: White %{y:.1f}%<extra></extra>",
            )
        )
        fig.add_hline(y=50, line_dash="dot", line_color="#999")
        fig.update_layout(
            title="Evaluation: White's Win% after each ply (Stockfish)",
            **{**LAYOUT, "height": 300, "showlegend": False},
        )
        fig.update_xaxes(title_text="ply")
        fig.update_yaxes(range=[0, 100], title_text="White's Win%")
        context["charts"] = [chart(fig, "chess-eval-graph")]
        context["ply_links"] = {
            r["ply"]: i
            for i, r in enumerate(positions)
            if isinstance(r, dict) and isinstance(r.get("ply"), int)
        }
    return render_page(request, "chess_positions/position.html", context)
