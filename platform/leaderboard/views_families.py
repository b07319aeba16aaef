"""Family pages: HiPhO medal table and exam page, Hanabi tables and heatmap, chess dashboard.
They read LeaderboardEntry rows (and, on the exam page, the stored metrics of its runs)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from django.http import Http404

from catalog.models import ModelEntry
from leaderboard.models import LeaderboardEntry
from leaderboard.page_cache import cached_page
from leaderboard.pages import chart, fmt, model_url, paginate, pct, pm, render_page, run_url
from leaderboard.tables import Cell, Column, Table

MEDALS = ("gold", "silver", "bronze")
TOP_ROWS = 50  # rows of a secondary table shown on a page (downloads carry all)
_LAYOUT = {"template": "plotly_white", "height": 380, "margin": {"l": 50, "r": 20, "t": 40, "b": 80},
               "font": {"size": 12}, "legend": {"orientation": "h", "y": -0.25}}
HANABI_SETTINGS = {"watson": 0, "sherlock": 1, "mycroft": 2, "bot": 3}
CHESS_CLASSES = ("best", "excellent", "good", "inaccuracy", "mistake", "blunder")
CHESS_COLOURS = ("#1a7f37", "#4caf50", "#9ccc65", "#f5c518", "#f08c00", "#c62828")


# the columns the family pages read: skipping timestamps and model settings halves the cost
ENTRY_FIELDS = ("model_id", "benchmark_id", "part", "group", "label", "run_id", "score", "score_se",
                "score_lo", "score_hi", "summary", "model__slug", "model__display_name")


def _entries(family: str):
    return (LeaderboardEntry.objects.filter(family=family).select_related("model").only(*ENTRY_FIELDS)
            .order_by("model__display_name"))


def _by_model(entries) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for e in entries:
        row = out.setdefault(e.model_id, {"model": e.model, "cells": {}})
        row["cells"][e.group] = e
    return out


def _model_cell(model: ModelEntry) -> Cell:
    return Cell(model.display_name, href=model_url(model.slug))


# --- HiPhO ------------------------------------------------------------------------------

@cached_page
def hipho(request):
    entries = list(_entries("hipho"))
    exams: dict[str, dict[str, Any]] = {}
    for e in entries:
        info = exams.setdefault(e.group, {"label": e.label, "cutoffs": None, "full": None})
        if info["cutoffs"] is None and isinstance(e.summary.get("cutoffs"), dict):
            info["cutoffs"] = e.summary["cutoffs"]
        info["full"] = info["full"] or e.summary.get("full_marks")
    exam_ids = sorted(exams, key=lambda x: exams[x]["label"])
    rows = list(_by_model(entries).values())
    for row in rows:
        counts = {m: 0 for m in MEDALS}
        expected = {m: 0.0 for m in MEDALS}
        for e in row["cells"].values():
            medal = e.summary.get("medal")
            if medal in counts:
                counts[medal] += 1
            probs = e.summary.get("medal_probs") or {}
            for m in MEDALS:
                expected[m] += float(probs.get(m) or 0.0)
        row["counts"], row["expected"] = counts, expected
    rows.sort(key=lambda r: (-r["counts"]["gold"], -r["counts"]["silver"], -r["counts"]["bronze"],
                             r["model"].display_name.lower()))
    page = paginate(request, rows)

    columns = [Column("model", "Model")]
    for exam_id in exam_ids:
        columns += [Column(exam_id, exams[exam_id]["label"], numeric=True,
                           title="exam score ± SE; badge: medal at the official human cut-offs"),
                    Column(f"{exam_id}__medal", f"{exams[exam_id]['label']} medal", hidden=True),
                    Column(f"{exam_id}__p_gold", f"{exams[exam_id]['label']} P(gold)", hidden=True)]
    columns += [Column("gold", "Gold", numeric=True), Column("silver", "Silver", numeric=True),
                Column("bronze", "Bronze", numeric=True),
                Column("expected_gold", "Expected golds", numeric=True,
                       title="sum over exams of the bootstrap probability of a gold medal"),
                Column("expected_medals", "Expected medals", numeric=True)]
    table = Table("hipho-medals", "HiPhO medal table", columns,
                  caption="Each cell: exam score (points, ± SE). Hover a cell for the bootstrap medal "
                          "probabilities. The first rows are the human cut-offs and the top human score.")
    for kind, label in (("gold", "Gold cut-off"), ("silver", "Silver cut-off"),
                        ("bronze", "Bronze cut-off"), ("top_human", "Top human")):
        cells: dict[str, Any] = {"model": Cell(label)}
        for exam_id in exam_ids:
            cut = (exams[exam_id]["cutoffs"] or {}).get(kind)
            cells[exam_id] = Cell(cut, fmt(cut, 1))
        table.add(_css="human", **cells)
    for row in page.object_list:
        cells = {"model": _model_cell(row["model"])}
        for exam_id in exam_ids:
            e = row["cells"].get(exam_id)
            if e is None:
                continue
            medal = e.summary.get("medal")
            probs = e.summary.get("medal_probs") or {}
            title = " · ".join(f"P({m}) {fmt(probs.get(m), 2)}" for m in (*MEDALS, "none") if m in probs)
            cells[exam_id] = Cell(e.score, fmt(e.score, 1), href=run_url(e.run_id),
                                  badge=medal if medal in MEDALS else "", title=title,
                                  sub=f"± {fmt(e.score_se, 1)}" if e.score_se is not None else "")
            cells[f"{exam_id}__medal"] = Cell(medal)
            cells[f"{exam_id}__p_gold"] = Cell(probs.get("gold"))
        for m in MEDALS:
            cells[m] = Cell(row["counts"][m])
        cells["expected_gold"] = Cell(round(row["expected"]["gold"], 3), fmt(row["expected"]["gold"], 2))
        total = sum(row["expected"].values())
        cells["expected_medals"] = Cell(round(total, 3), fmt(total, 2))
        # the reference baseline checks the grader; it is shown, but marked apart
        sanity = any(e.summary.get("sanity_check") for e in row["cells"].values())
        table.add(_css="sanity" if sanity else "", **cells)

    top = rows[:25]
    fig = go.Figure()
    for medal, colour in zip(MEDALS, ("#d4a017", "#9e9e9e", "#b06d2c")):
        fig.add_bar(name=medal, x=[r["model"].display_name for r in top],
                    y=[r["counts"][medal] for r in top], marker_color=colour)
    fig.update_layout(barmode="stack", title="Medals per model", **_LAYOUT)
    return render_page(request, "leaderboard/hipho.html", {
        "page": page, "exams": [(x, exams[x]["label"]) for x in exam_ids],
        "charts": [chart(fig, "hipho-medals-chart")] if rows else [],
    }, [table])


def _exam_problems(entry: LeaderboardEntry) -> dict[str, Any]:
    metrics = entry.run.metrics or {}
    if entry.part:
        metrics = (metrics.get("exams") or {}).get(entry.part) or {}
    problems = metrics.get("problems")
    return problems if isinstance(problems, dict) else {}


@cached_page
def hipho_exam(request, exam_id: str):
    entries_qs = (LeaderboardEntry.objects.filter(family="hipho", group=exam_id)
                  .select_related("model", "run").order_by("-score"))
    if not entries_qs.exists():
        raise Http404("no results for this exam")
    page = paginate(request, entries_qs, 25)
    entries = list(page.object_list)
    first = entries[0] if entries else entries_qs.first()
    summary_table = Table("hipho-exam-summary", "Scores", [
        Column("model", "Model"), Column("score", "Score", numeric=True), Column("score_se", "SE", hidden=True),
        Column("ci95", "95% interval", numeric=True), Column("medal", "Medal"),
        Column("p_gold", "P(gold)", numeric=True), Column("p_silver", "P(silver)", numeric=True),
        Column("p_bronze", "P(bronze)", numeric=True), Column("share", "Share of top human", numeric=True),
        Column("answer_only", "Answer-level only"),
    ])
    problems: dict[str, dict[str, Any]] = {}
    per_model: list[tuple[LeaderboardEntry, dict[str, Any]]] = []
    for e in entries:
        s = e.summary
        probs = s.get("medal_probs") or {}
        medal = s.get("medal")
        summary_table.add(
            model=_model_cell(e.model), score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
            score_se=Cell(e.score_se),
            ci95=Cell([e.score_lo, e.score_hi], f"[{fmt(e.score_lo, 2)}, {fmt(e.score_hi, 2)}]"),
            medal=Cell(medal, "" if medal in MEDALS else (medal or "—"), badge=medal if medal in MEDALS else ""),
            p_gold=Cell(probs.get("gold"), fmt(probs.get("gold"), 2)),
            p_silver=Cell(probs.get("silver"), fmt(probs.get("silver"), 2)),
            p_bronze=Cell(probs.get("bronze"), fmt(probs.get("bronze"), 2)),
            share=Cell(s.get("share_of_top_human"), pct(s.get("share_of_top_human"))),
            answer_only=Cell(s.get("answer_level_only"), "yes" if s.get("answer_level_only") else "no"),
        )
        probs_of_model = _exam_problems(e)
        per_model.append((e, probs_of_model))
        for pid, p in probs_of_model.items():
            problems.setdefault(pid, {"full": p.get("full")})
    problem_ids = sorted(problems, key=_natural)
    columns = [Column("model", "Model")]
    for pid in problem_ids:
        columns += [Column(pid, f"{pid} ({fmt(problems[pid]['full'], 1)} pts)", numeric=True,
                           title="P = max(answer-level A, step-level S); below: A, S and the winning scheme"),
                    Column(f"{pid}__A", f"{pid} A", hidden=True), Column(f"{pid}__S", f"{pid} S", hidden=True),
                    Column(f"{pid}__scheme", f"{pid} scheme", hidden=True)]
    problem_table = Table("hipho-exam-problems", "Per-problem points", columns,
                          caption="P is the problem score; A answer-level points, S step-level (marking "
                                  "scheme) points, and which official scheme scored best.")
    for e, probs_of_model in per_model:
        cells: dict[str, Any] = {"model": _model_cell(e.model)}
        for pid in problem_ids:
            p = probs_of_model.get(pid)
            if not p:
                continue
            scheme = p.get("best_scheme")
            cells[pid] = Cell(p.get("P"), fmt(p.get("P"), 2), href=run_url(e.run_id),
                              sub=f"A {fmt(p.get('A'), 2)} · S {fmt(p.get('S'), 2)}"
                                  + (f" · scheme {scheme}" if scheme is not None else ""))
            cells[f"{pid}__A"], cells[f"{pid}__S"], cells[f"{pid}__scheme"] = (
                Cell(p.get("A")), Cell(p.get("S")), Cell(scheme))
        problem_table.add(**cells)
    fig = go.Figure()
    for e, probs_of_model in per_model[:10]:
        fig.add_bar(name=e.model.display_name, x=problem_ids,
                    y=[(probs_of_model.get(pid) or {}).get("P") for pid in problem_ids])
    fig.update_layout(barmode="group", title="Points per problem", **_LAYOUT)
    return render_page(request, "leaderboard/hipho_exam.html", {
        "exam_id": exam_id, "label": first.label, "page": page,
        "cutoffs": first.summary.get("cutoffs") or {}, "full_marks": first.summary.get("full_marks"),
        "human_full": first.summary.get("human_full"),
        "figures": _exam_figures(exam_id),
        "charts": [chart(fig, "hipho-exam-chart")] if problem_ids else [],
    }, [summary_table, problem_table])


def _exam_figures(exam_id: str) -> list[dict[str, str]]:
    from django.urls import reverse

    from leaderboard.hipho_figures import exam_figures

    ids = list(LeaderboardEntry.objects.filter(family="hipho", group=exam_id)
               .values_list("benchmark_id", flat=True).distinct())
    return [{"url": reverse("leaderboard:hipho_figure", args=[exam_id, f["p"], f["f"]]), "caption": f["caption"]}
            for f in exam_figures(exam_id, ids)]


def hipho_figure(request, exam_id: str, p: int, f: int):
    from django.http import FileResponse

    from leaderboard.hipho_figures import figure_file

    ids = list(LeaderboardEntry.objects.filter(family="hipho", group=exam_id)
               .values_list("benchmark_id", flat=True).distinct())
    found = figure_file(exam_id, ids, p, f)
    if found is None:
        raise Http404("no such figure")
    path, content_type = found
    response = FileResponse(path.open("rb"), content_type=content_type)
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _natural(text: str):
    import re

    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(text))]


# --- Hanabi -----------------------------------------------------------------------------

def _hanabi_config(e: LeaderboardEntry) -> tuple[int, int, str]:
    players = int(e.summary.get("players") or 0)
    setting = str(e.summary.get("setting") or "bot")
    return players, HANABI_SETTINGS.get(setting, 9), setting


@cached_page
def hanabi(request):
    entries = list(_entries("hanabi"))
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
        columns += [Column(key, f"{cfg[0]}p {cfg[2]}", numeric=True,
                           title="mean fireworks score out of 25 ± SE; perfect-game and bomb-out rates below"),
                    Column(f"{key}__se", f"{key} SE", hidden=True),
                    Column(f"{key}__perfect", f"{key} perfect rate", hidden=True),
                    Column(f"{key}__bomb", f"{key} bomb-out rate", hidden=True),
                    Column(f"{key}__games", f"{key} games", hidden=True)]
    self_table = Table("hanabi-self", "Self-play", columns,
                       caption="Mean score (0–25, kept on bomb-out) ± SE per number of players and prompt "
                               "setting; below each: perfect-game rate and bomb-out rate.")
    for row in page.object_list:
        cells: dict[str, Any] = {"model": _model_cell(row["model"])}
        for cfg in configs:
            e = row["cells"].get(cfg)
            if e is None:
                continue
            key = f"{cfg[0]}p_{cfg[2]}"
            s = e.summary
            cells[key] = Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id),
                              sub=f"perfect {pct(s.get('perfect_rate'), 0)} · bomb {pct(s.get('bomb_rate'), 0)}")
            cells[f"{key}__se"] = Cell(e.score_se)
            cells[f"{key}__perfect"] = Cell(s.get("perfect_rate"))
            cells[f"{key}__bomb"] = Cell(s.get("bomb_rate"))
            cells[f"{key}__games"] = Cell(s.get("games"))
        self_table.add(**cells)

    cross_table = Table("hanabi-cross", "Cross-play", [
        Column("model", "Model"), Column("players", "Players", numeric=True), Column("partners", "Partners"),
        Column("score", "Score", numeric=True), Column("score_se", "SE", hidden=True),
        Column("perfect", "Perfect", numeric=True), Column("bomb", "Bomb-out", numeric=True),
        Column("games", "Games", numeric=True),
    ])
    heat: dict[tuple[str, str], float | None] = {}
    for e in sorted(cross_entries, key=lambda x: -(x.score or 0)):
        s = e.summary
        partners = ", ".join(str(p) for p in (s.get("partners") or [])) or "—"
        cross_table.add(model=_model_cell(e.model), players=Cell(s.get("players")),
                        partners=Cell(partners), score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
                        score_se=Cell(e.score_se), perfect=Cell(s.get("perfect_rate"), pct(s.get("perfect_rate"))),
                        bomb=Cell(s.get("bomb_rate"), pct(s.get("bomb_rate"))), games=Cell(s.get("games")))
        heat[(e.model.display_name, f"{s.get('players')}p with {partners}")] = e.score
    charts = []
    if heat:
        ys = sorted({k[0] for k in heat})
        xs = sorted({k[1] for k in heat})
        fig = go.Figure(go.Heatmap(z=[[heat.get((y, x)) for x in xs] for y in ys], x=xs, y=ys,
                                   colorscale="Viridis", zmin=0, zmax=25, colorbar={"title": "score"}))
        fig.update_layout(title="Cross-play: mean score by model and partners", **_LAYOUT)
        charts.append(chart(fig, "hanabi-cross-heatmap"))
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
            fig.add_bar(name=row["model"].display_name, x=xs, y=ys, error_y={"type": "data", "array": es})
        fig.update_layout(barmode="group", title="Self-play mean score ± SE", **_LAYOUT)
        fig.update_yaxes(range=[0, 25])
        charts.insert(0, chart(fig, "hanabi-self-chart"))
    return render_page(request, "leaderboard/hanabi.html", {"page": page, "charts": charts},
                       [self_table, cross_table])


# --- Chess ------------------------------------------------------------------------------

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
        table.add(model=_model_cell(e.model), task=Cell(e.group),
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
        elo_table.add(model=_model_cell(e.model), elo=Cell(e.score, pm(e.score, e.score_se, 0), href=run_url(e.run_id)),
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
        cells: dict[str, Any] = {"model": _model_cell(e.model)}
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
        fig.update_layout(barmode="stack", title="Move classes (% of moves)", **_LAYOUT)
        fig.update_yaxes(range=[0, 100])
        charts.append(chart(fig, "chess-move-classes"))
    if games:
        fig = go.Figure(go.Scatter(
            x=[e.model.display_name for e in games], y=[e.score for e in games], mode="markers",
            error_y={"type": "data", "symmetric": False,
                         "array": [(e.score_hi - e.score) if e.score_hi is not None and e.score is not None else 0 for e in games],
                         "arrayminus": [(e.score - e.score_lo) if e.score_lo is not None and e.score is not None else 0 for e in games]}))
        fig.update_layout(title="Elo with 95% interval", **_LAYOUT)
        charts.append(chart(fig, "chess-elo-chart"))
    if puzzles and bands:
        fig = go.Figure()
        for e in puzzles[:10]:
            fig.add_bar(name=e.model.display_name, x=bands,
                        y=[(e.summary["puzzle_accuracy_by_band"].get(b) or {}).get("rate") for b in bands])
        fig.update_layout(barmode="group", title="Puzzle accuracy by rating band", **_LAYOUT)
        charts.append(chart(fig, "chess-puzzle-chart"))
    return render_page(request, "leaderboard/chess.html", {
        "page": page, "tasks": tasks, "task": task, "charts": charts,
    }, [table, elo_table, band_table])


def _band_key(band: str):
    import re

    digits = re.findall(r"\d+", band)
    return (int(digits[0]) if digits else 0, band.startswith(">"))
