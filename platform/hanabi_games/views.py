"""Hanabi pages: self-play and cross-play tables with charts, and the replay viewer of one game."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from django.http import Http404

from evaluators.hanabi.replay import ReplayError, game_frames
from hanabi_games.matrix import crossplay_from_entries
from leaderboard.family_pages import LAYOUT, family_entries, model_cell
from leaderboard.models import LeaderboardEntry
from leaderboard.page_cache import cached_page
from leaderboard.pages import chart, fmt, paginate, pct, pm, render_page, run_url
from leaderboard.tables import Cell, Column, Table, column_group
from leaderboard.views_items import item_for_viewer

HANABI_SETTINGS = {"watson": 0, "sherlock": 1, "mycroft": 2, "bot": 3}


def _hanabi_config(e: LeaderboardEntry) -> tuple[int, int, str]:
    players = int(e.summary.get("players") or 0)
    setting = str(e.summary.get("setting") or "bot")
    return players, HANABI_SETTINGS.get(setting, 9), setting


@cached_page
def hanabi(request):
    entries = list(family_entries("hanabi"))
    self_entries = [e for e in entries if e.group != "cross"]
    cross_entries = [e for e in entries if e.group == "cross"]
    configs = sorted({_hanabi_config(e) for e in self_entries})
    rows: dict[int, dict[str, Any]] = {}
    for e in self_entries:
        rows.setdefault(e.model_id, {"model": e.model, "cells": {}})["cells"][_hanabi_config(e)] = e
    ordered = sorted(rows.values(), key=lambda r: -max((x.score or 0) for x in r["cells"].values()))
    page = paginate(request, ordered)
    columns = [Column("model", "Model")]
    for cfg in configs:
        key = f"{cfg[0]}p_{cfg[2]}"
        columns += column_group(
            Column(
                key,
                f"{cfg[0]}p {cfg[2]}",
                numeric=True,
                title="mean HLE score out of 25 (0 when the last life is lost) ± SE; "
                "perfect-game and bomb-out rates and the fireworks total below",
            ),
            ("se", "SE"),
            ("fireworks", "fireworks total (kept on bomb-out)"),
            ("perfect", "perfect rate"),
            ("bomb", "bomb-out rate"),
            ("games", "games"),
            prefix=key,
        )
    self_table = Table(
        "hanabi-self",
        "Self-play",
        columns,
        caption="Mean HLE score (0–25, 0 when the last life is lost) ± SE per number "
        "of players and prompt setting; below each: perfect-game rate, "
        "bomb-out rate and the fireworks total (secondary: cards kept on a "
        "bomb-out).",
    )
    for row in page.object_list:
        cells: dict[str, Any] = {"model": model_cell(row["model"])}
        for cfg in configs:
            e = row["cells"].get(cfg)
            if e is None:
                continue
            key = f"{cfg[0]}p_{cfg[2]}"
            s = e.summary
            fw = s.get("mean_fireworks_score")
            fw_text = f" · fireworks {fw:.1f}" if isinstance(fw, (int, float)) else ""
            cells[key] = Cell(
                e.score,
                pm(e.score, e.score_se, 2),
                href=run_url(e.run_id),
                sub=f"perfect {pct(s.get('perfect_rate'), 0)} · bomb "
                f"{pct(s.get('bomb_rate'), 0)}{fw_text}",
            )
            cells[f"{key}__se"] = Cell(e.score_se)
            cells[f"{key}__fireworks"] = Cell(fw)
            cells[f"{key}__perfect"] = Cell(s.get("perfect_rate"))
            cells[f"{key}__bomb"] = Cell(s.get("bomb_rate"))
            cells[f"{key}__games"] = Cell(s.get("games"))
        self_table.add(**cells)

    cross_table = Table(
        "hanabi-cross",
        "Cross-play",
        [
            Column("model", "Model"),
            Column("players", "Players", numeric=True),
            Column("partners", "Partners"),
            Column(
                "score",
                "HLE score",
                numeric=True,
                title="mean HLE score out of 25 (0 when the last life is lost) ± SE",
            ),
            Column("score_se", "SE", hidden=True),
            Column(
                "fireworks",
                "Fireworks total",
                numeric=True,
                title="secondary: mean cards on the fireworks, kept when the last life is lost",
            ),
            Column("perfect", "Perfect", numeric=True),
            Column("bomb", "Bomb-out", numeric=True),
            Column("games", "Games", numeric=True),
        ],
    )
    for e in sorted(cross_entries, key=lambda x: -(x.score or 0)):
        s = e.summary
        partners = ", ".join(str(p) for p in (s.get("partners") or [])) or "—"
        cross_table.add(
            model=model_cell(e.model),
            players=Cell(s.get("players")),
            partners=Cell(partners),
            score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
            score_se=Cell(e.score_se),
            fireworks=Cell(
                s.get("mean_fireworks_score"),
                pm(s.get("mean_fireworks_score"), s.get("fireworks_score_se"), 2),
            ),
            perfect=Cell(s.get("perfect_rate"), pct(s.get("perfect_rate"))),
            bomb=Cell(s.get("bomb_rate"), pct(s.get("bomb_rate"))),
            games=Cell(s.get("games")),
        )
    matrix = crossplay_from_entries(
        entries,
        players=_int(request.GET.get("players")),
        setting=request.GET.get("setting") or None,
    )
    charts = []
    tables = [self_table, cross_table]
    if matrix["agents"] and any(k != r for r, row in matrix["cells"].items() for k in row):
        charts.append(chart(_heatmap(matrix), "hanabi-cross-heatmap"))
        tables.append(_matrix_table(matrix))
    if configs and ordered:
        fig = go.Figure()
        for row in ordered[:10]:
            xs, ys, es = [], [], []
            for cfg in configs:
                e = row["cells"].get(cfg)
                if e is not None:
                    xs.append(f"{cfg[0]}p {cfg[2]}")
                    ys.append(e.score)
                    es.append(e.score_se or 0.0)
            fig.add_bar(
                name=row["model"].display_name, x=xs, y=ys, error_y={"type": "data", "array": es}
            )
        fig.update_layout(barmode="group", title="Self-play mean HLE score ± SE", **LAYOUT)
        fig.update_yaxes(range=[0, 25])
        charts.insert(0, chart(fig, "hanabi-self-chart"))
    return render_page(
        request,
        "hanabi_games/hanabi.html",
        {"page": page, "charts": charts, "matrix": matrix},
        tables,
    )


def _int(raw: str | None) -> int | None:
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


def _heatmap(matrix: dict[str, Any]) -> go.Figure:
    """The agent x agent matrix `manage.py hanabi_matrix` prints: rows play with the column agent;
    each cell shows the mean score, its SE and the number of games (diagonal = self-play)."""
    agents = matrix["agents"]
    z, text = [], []
    for row in agents:
        zr, tr = [], []
        for col in agents:
            c = matrix["cells"].get(row, {}).get(col)
            zr.append(c["score"] if c else None)
            tr.append(
                f"{c['score']:.1f}<br>± {fmt(c['score_se'], 1)}<br>n={c['games']}"
                if c and c["score"] is not None
                else ""
            )
        z.append(zr)
        text.append(tr)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=agents,
            y=agents,
            text=text,
            texttemplate="%{text}",
            textfont={"size": 11},
            colorscale="Viridis",
            zmin=0,
            zmax=25,
            colorbar={"title": {"text": "score"}, "thickness": 12},
            hovertemplate="%{y} with %{x}: %{z:.2f}<extra></extra>",
            xgap=2,
            ygap=2,
        )
    )
    fig.update_layout(
        title=f"Cross-play, {matrix['players']} players: mean HLE score (± SE, n games)",
        **{
            **LAYOUT,
            "height": max(380, 90 + 60 * len(agents)),
            "margin": {"l": 20, "r": 20, "t": 20, "b": 20},  # the axes take what their labels need
        },
    )
    fig.update_xaxes(title_text="partner (column)", side="bottom", tickangle=-30)
    fig.update_yaxes(title_text="agent (row)", autorange="reversed")
    return fig


def _matrix_table(matrix: dict[str, Any]) -> Table:
    agents = matrix["agents"]
    columns = [Column("agent", "Agent \\ partner")]
    for a in agents:
        columns += [
            Column(a, a, numeric=True),
            Column(f"{a}__se", f"{a} SE", hidden=True),
            Column(f"{a}__n", f"{a} games", hidden=True),
        ]
    table = Table(
        "hanabi-matrix",
        f"Cross-play matrix, {matrix['players']} players",
        columns,
        caption="Row agent playing with the column agent: mean HLE score ± SE (games); the diagonal is "
        f"self-play. Self-play mean {fmt(matrix['diagonal_mean'], 2)}, cross-play mean "
        f"{fmt(matrix['off_diagonal_mean'], 2)}.",
    )
    for row in agents:
        cells: dict[str, Any] = {"agent": Cell(row)}
        for col in agents:
            c = matrix["cells"].get(row, {}).get(col)
            if c:
                cells[col] = Cell(
                    c["score"], pm(c["score"], c["score_se"], 2), sub=f"n={c['games']}"
                )
                cells[f"{col}__se"] = Cell(c["score_se"])
                cells[f"{col}__n"] = Cell(c["games"])
        table.add(**cells)
    return table


def replay(request, pk: int):
    item = item_for_viewer(pk)
    if item.run.benchmark.family != "hanabi":
        raise Http404("not a Hanabi game")
    error = ""
    data: dict[str, Any] = {"frames": []}
    try:
        data = game_frames(dict(item.details or {}))
    except ReplayError as exc:
        error = str(exc)
    return render_page(
        request,
        "hanabi_games/replay.html",
        {
            "item": item,
            "run": item.run,
            "replay": data,
            "error": error,
            "n_frames": len(data.get("frames", [])),
            "run_url": run_url(item.run_id),
        },
    )
