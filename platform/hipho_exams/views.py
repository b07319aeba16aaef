"""HiPhO pages: the medal table over exams, one page per exam (scores, medal probabilities,
per-problem points) and the exam's problem figures. They read LeaderboardEntry rows (and, on
the exam page, the stored metrics of its runs)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from django.http import Http404
from django.urls import reverse

from hipho_exams.figures import problem_labels
from hipho_exams.models import ReportedModel
from hipho_exams.reported import reported_rows
from leaderboard.family_pages import LAYOUT, entries_by_model, family_entries, model_cell
from leaderboard.models import LeaderboardEntry
from leaderboard.page_cache import cached_page
from leaderboard.pages import chart, fmt, interval_text, paginate, pct, pm, render_page, run_url
from leaderboard.tables import Cell, Column, Table, column_group
from rubrics.catalogue import CATALOGUE

MEDALS = ("gold", "silver", "bronze")


@cached_page
def hipho(request):
    entries = list(family_entries("hipho"))
    # reported rows (the HiPhO authors' figures): shown by default, hidden with ?reported=0,
    # ranked together with runs made here only when asked (?reported=together)
    mode = request.GET.get("reported", "1")
    mode = mode if mode in ("0", "1", "together") else "1"
    reported = reported_rows() if mode != "0" else []
    exams: dict[str, dict[str, Any]] = {}
    for e in entries:
        info = exams.setdefault(e.group, {"label": e.label, "cutoffs": None, "full": None})
        if info["cutoffs"] is None and isinstance(e.summary.get("cutoffs"), dict):
            info["cutoffs"] = e.summary["cutoffs"]
        info["full"] = info["full"] or e.summary.get("full_marks")
    for r in reported:
        for exam_id in r["scores"]:
            known = CATALOGUE[exam_id]
            info = exams.setdefault(
                exam_id, {"label": known.name, "cutoffs": None, "full": known.model_full}
            )
            if info["cutoffs"] is None and known.cutoffs is not None:
                info["cutoffs"] = known.cutoffs.as_dict()
    exam_ids = sorted(exams, key=lambda x: exams[x]["label"])
    rows = list(entries_by_model(entries).values())
    for row in rows:
        counts = {m: 0 for m in MEDALS}
        expected = {m: 0.0 for m in MEDALS}
        sanity = any(e.summary.get("sanity_check") for e in row["cells"].values())
        for e in [] if sanity else row["cells"].values():  # the sanity check wins no medal
            medal = e.summary.get("medal")
            if medal in counts:
                counts[medal] += 1
            probs = e.summary.get("medal_probs") or {}
            for m in MEDALS:
                expected[m] += float(probs.get(m) or 0.0)
        row["counts"], row["expected"], row["sanity"] = counts, expected, sanity
    for r in reported:
        r["counts"] = {m: sum(1 for v in r["medals"].values() if v == m) for m in MEDALS}
    together = [*rows, *reported] if mode == "together" else rows
    together.sort(
        key=lambda r: (
            -r["counts"]["gold"],
            -r["counts"]["silver"],
            -r["counts"]["bronze"],
            _row_name(r).lower(),
        )
    )
    page = paginate(request, together)

    columns = [Column("model", "Model")]
    for exam_id in exam_ids:
        columns += [
            Column(
                exam_id,
                exams[exam_id]["label"],
                numeric=True,
                title="exam score ± SE; badge: medal at the official human cut-offs",
            ),
            Column(f"{exam_id}__medal", f"{exams[exam_id]['label']} medal", hidden=True),
            Column(f"{exam_id}__p_gold", f"{exams[exam_id]['label']} P(gold)", hidden=True),
        ]
    columns += [
        Column("gold", "Gold", numeric=True),
        Column("silver", "Silver", numeric=True),
        Column("bronze", "Bronze", numeric=True),
        Column(
            "expected_gold",
            "Expected golds",
            numeric=True,
            title="sum over exams of the bootstrap probability of a gold medal",
        ),
        Column("expected_medals", "Expected medals", numeric=True),
    ]
    table = Table(
        "hipho-medals",
        "HiPhO medal table",
        columns,
        caption="Each cell: exam score (points, ± SE) with the medal it earns, decided on the score "
        "as published (rounded to one decimal, as the HiPhO leaderboard does); the bootstrap medal "
        "probabilities are on the exam's page and in the downloads. The first rows are the "
        "human cut-offs and the top human score; the grader sanity check is never a medallist.",
    )
    for kind, label in (
        ("gold", "Gold cut-off"),
        ("silver", "Silver cut-off"),
        ("bronze", "Bronze cut-off"),
        ("top_human", "Top human"),
    ):
        cells: dict[str, Any] = {"model": Cell(label)}
        for exam_id in exam_ids:
            cut = (exams[exam_id]["cutoffs"] or {}).get(kind)
            cells[exam_id] = Cell(cut, fmt(cut, 1))
        table.add(_css="human", **cells)
    for row in page.object_list:
        if "reported" in row:
            table.add(_css="reported", **_reported_cells(row, exam_ids))
            continue
        cells = {"model": model_cell(row["model"])}
        sanity = any(e.summary.get("sanity_check") for e in row["cells"].values())
        for exam_id in exam_ids:
            e = row["cells"].get(exam_id)
            if e is None:
                continue
            medal = e.summary.get("medal")
            probs = e.summary.get("medal_probs") or {}
            title = " · ".join(
                f"P({m}) {fmt(probs.get(m), 2)}" for m in (*MEDALS, "none") if m in probs
            )
            cells[exam_id] = Cell(
                e.score,
                fmt(e.score, 1),
                href=run_url(e.run_id),
                badge=medal if medal in MEDALS and not sanity else "",
                title=title,
                sub=f"± {fmt(e.score_se, 1)}" if e.score_se is not None else "",
            )
            cells[f"{exam_id}__medal"] = Cell(None if sanity else medal)
            cells[f"{exam_id}__p_gold"] = Cell(probs.get("gold"))
        for m in MEDALS:
            cells[m] = Cell(None if sanity else row["counts"][m])
        cells["expected_gold"] = Cell(
            round(row["expected"]["gold"], 3), fmt(row["expected"]["gold"], 2)
        )
        total = sum(row["expected"].values())
        cells["expected_medals"] = Cell(round(total, 3), fmt(total, 2))
        # the reference baseline checks the grader; it is shown, but marked apart and wins nothing
        if sanity:
            cells["model"] = Cell(
                row["model"].display_name, href=cells["model"].href, sub="grader sanity check"
            )
        table.add(_css="sanity" if sanity else "", **cells)

    tables = [table]
    if mode == "1" and reported:
        rtable = Table(
            "hipho-reported",
            "Reported by the HiPhO authors (not evaluated here)",
            [c for c in columns if not c.key.startswith("expected")],
            caption=f"Scores as reported by the HiPhO authors ({reported[0]['reported'].source}, "
            f"data version {reported[0]['reported'].version}), with the medal each earns "
            "at the official human cut-offs (score as published, one decimal). They "
            "are not results of this platform and are not ranked with them.",
        )
        for r in sorted(
            reported,
            key=lambda r: (
                -r["counts"]["gold"],
                -r["counts"]["silver"],
                -r["counts"]["bronze"],
                _row_name(r).lower(),
            ),
        ):
            rtable.add(_css="reported", **_reported_cells(r, exam_ids))
        tables.append(rtable)

    # the chart counts medals: the sanity check (never a medallist) and models without one stay out
    top = [r for r in rows if not r["sanity"] and any(r["counts"].values())][:25]
    fig = go.Figure()
    for medal, colour in zip(MEDALS, ("#d4a017", "#9e9e9e", "#b06d2c")):
        fig.add_bar(
            name=medal,
            x=[r["model"].display_name for r in top],
            y=[r["counts"][medal] for r in top],
            marker_color=colour,
        )
    fig.update_layout(barmode="stack", title="Medals per model", **LAYOUT)
    return render_page(
        request,
        "hipho_exams/hipho.html",
        {
            "page": page,
            "exams": [(x, exams[x]["label"]) for x in exam_ids],
            "charts": [chart(fig, "hipho-medals-chart")] if top else [],
            "reported_mode": mode,
            "reported_count": len(reported) if mode != "0" else ReportedModel.objects.count(),
        },
        tables,
    )


def _row_name(row: dict[str, Any]) -> str:
    return row["reported"].name if "reported" in row else row["model"].display_name


def _reported_cells(row: dict[str, Any], exam_ids: list[str]) -> dict[str, Cell]:
    rm = row["reported"]
    href = reverse("leaderboard:hipho_reported", args=[rm.pk]) if rm.linked_model_id else ""
    cells: dict[str, Cell] = {
        "model": Cell(
            rm.name,
            rm.name,
            href=href,
            sub=f"reported · {rm.category}" if rm.category else "reported",
        )
    }
    for exam_id in exam_ids:
        score = row["scores"].get(exam_id)
        if score is None:
            continue
        medal = row["medals"].get(exam_id)
        cells[exam_id] = Cell(
            score,
            fmt(score, 1),
            badge=medal if medal in MEDALS else "",
            title="reported by the HiPhO authors",
        )
        cells[f"{exam_id}__medal"] = Cell(medal)
    for m in MEDALS:
        cells[m] = Cell(row["counts"][m])
    return cells


@cached_page
def hipho_reported(request, pk: int):
    """A model evaluated here beside what the HiPhO authors report for it, exam by exam."""
    rm = ReportedModel.objects.filter(pk=pk).select_related("linked_model").first()
    if rm is None or rm.linked_model is None:
        raise Http404("no reported model linked to a model evaluated here")
    ours = {e.group: e for e in family_entries("hipho") if e.model_id == rm.linked_model_id}
    table = Table(
        "hipho-reported-comparison",
        f"{rm.linked_model.display_name} here vs {rm.name} reported",
        [
            Column("exam", "Exam"),
            Column("ours", "Our score ± SE", numeric=True),
            Column("ci95", "Our 95% interval", numeric=True),
            Column("reported", "Reported", numeric=True),
            Column("diff", "Reported − ours", numeric=True),
            Column("inside", "Reported inside our interval"),
        ],
        caption=f"Reported: {rm.source}, data version {rm.version}. Ours: the representative run of "
        f"{rm.linked_model.display_name} on each exam (bootstrap 95% interval over samples).",
    )
    for score in rm.scores.all():
        e = ours.get(score.exam_id)
        label = CATALOGUE[score.exam_id].name if score.exam_id in CATALOGUE else score.exam_id
        if e is None:
            table.add(
                exam=Cell(label),
                reported=Cell(score.score, fmt(score.score, 1)),
                inside=Cell(None, "not evaluated here"),
            )
            continue
        inside = (
            None
            if e.score_lo is None or e.score_hi is None
            else e.score_lo <= score.score <= e.score_hi
        )
        table.add(
            exam=Cell(label, href=reverse("leaderboard:hipho_exam", args=[score.exam_id])),
            ours=Cell(e.score, pm(e.score, e.score_se, 1), href=run_url(e.run_id)),
            ci95=Cell(e.score_lo, interval_text(e.score_lo, e.score_hi, e.score_se, 1)),
            reported=Cell(score.score, fmt(score.score, 1)),
            diff=Cell(
                None if e.score is None else round(score.score - e.score, 6),
                fmt(None if e.score is None else score.score - e.score, 1),
            ),
            inside=Cell(inside, "—" if inside is None else ("yes" if inside else "no")),
        )
    return render_page(request, "hipho_exams/hipho_reported.html", {"reported": rm}, [table])


def _exam_problems(entry: LeaderboardEntry) -> dict[str, Any]:
    metrics = entry.run.metrics or {}
    if entry.part:
        metrics = (metrics.get("exams") or {}).get(entry.part) or {}
    problems = metrics.get("problems")
    return problems if isinstance(problems, dict) else {}


@cached_page
def hipho_exam(request, exam_id: str):
    entries_qs = (
        LeaderboardEntry.objects.filter(family="hipho", group=exam_id)
        .select_related("model", "run")
        .order_by("-score")
    )
    if not entries_qs.exists():
        raise Http404("no results for this exam")
    page = paginate(request, entries_qs, 25)
    entries = list(page.object_list)
    first = entries[0] if entries else entries_qs.first()
    if first is None:  # the rows went away between the two queries
        raise Http404("no results for this exam")
    summary_table = Table(
        "hipho-exam-summary",
        "Scores",
        [
            Column("model", "Model"),
            Column("score", "Score", numeric=True),
            Column("score_se", "SE", hidden=True),
            Column("ci95", "95% interval", numeric=True),
            Column("medal", "Medal"),
            Column("p_gold", "P(gold)", numeric=True),
            Column("p_silver", "P(silver)", numeric=True),
            Column("p_bronze", "P(bronze)", numeric=True),
            Column("share", "Share of top human", numeric=True),
            Column("answer_only", "Answer-level only"),
        ],
    )
    problems: dict[str, dict[str, Any]] = {}
    per_model: list[tuple[LeaderboardEntry, dict[str, Any]]] = []
    for e in entries:
        s = e.summary
        sanity = bool(s.get("sanity_check"))
        # the grader sanity check replays the reference answers: it earns no medal
        probs = {} if sanity else (s.get("medal_probs") or {})
        medal = None if sanity else s.get("medal")
        summary_table.add(
            _css="sanity" if sanity else "",
            model=Cell(
                e.model.display_name, href=model_cell(e.model).href, sub="grader sanity check"
            )
            if sanity
            else model_cell(e.model),
            score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
            score_se=Cell(e.score_se),
            ci95=Cell(
                [e.score_lo, e.score_hi],
                interval_text(e.score_lo, e.score_hi, e.score_se, 2),
                title="95% bootstrap interval over the samples",
            ),
            medal=Cell(
                medal,
                "" if medal in MEDALS else ("not a medallist" if sanity else (medal or "—")),
                badge=medal if medal in MEDALS else "",
            ),
            p_gold=Cell(probs.get("gold"), fmt(probs.get("gold"), 2)),
            p_silver=Cell(probs.get("silver"), fmt(probs.get("silver"), 2)),
            p_bronze=Cell(probs.get("bronze"), fmt(probs.get("bronze"), 2)),
            share=Cell(s.get("share_of_top_human"), pct(s.get("share_of_top_human"))),
            answer_only=Cell(
                s.get("answer_level_only"), "yes" if s.get("answer_level_only") else "no"
            ),
        )
        probs_of_model = _exam_problems(e)
        per_model.append((e, probs_of_model))
        for pid, p in probs_of_model.items():
            problems.setdefault(pid, {"full": p.get("full")})
    problem_ids = sorted(problems, key=_natural)
    short = problem_labels(problem_ids)
    columns = [Column("model", "Model")]
    for pid in problem_ids:
        columns += column_group(
            Column(
                pid,
                f"{short[pid]} ({fmt(problems[pid]['full'], 1)} pt)",
                numeric=True,
                title="P = max(answer-level A, step-level S); below: A, S and the winning scheme",
            ),
            ("A", "A"),
            ("S", "S"),
            ("scheme", "scheme"),
            prefix=pid,
        )
    problem_table = Table(
        "hipho-exam-problems",
        "Per-problem points",
        columns,
        caption="P is the problem score; A answer-level points, S step-level (marking "
        "scheme) points, and which official scheme scored best. Columns are the "
        "problems of this exam (part.question).",
    )
    for e, probs_of_model in per_model:
        cells: dict[str, Any] = {"model": model_cell(e.model)}
        for pid in problem_ids:
            p = probs_of_model.get(pid)
            if not p:
                continue
            scheme = p.get("best_scheme")
            cells[pid] = Cell(
                p.get("P"),
                fmt(p.get("P"), 2),
                href=run_url(e.run_id),
                sub=f"A {fmt(p.get('A'), 2)} · S {fmt(p.get('S'), 2)}"
                + (f" · scheme {scheme}" if scheme is not None else ""),
            )
            cells[f"{pid}__A"], cells[f"{pid}__S"], cells[f"{pid}__scheme"] = (
                Cell(p.get("A")),
                Cell(p.get("S")),
                Cell(scheme),
            )
        problem_table.add(**cells)
    fig = go.Figure()
    for e, probs_of_model in per_model[:10]:
        fig.add_bar(
            name=e.model.display_name,
            x=[short[pid] for pid in problem_ids],
            y=[(probs_of_model.get(pid) or {}).get("P") for pid in problem_ids],
        )
    fig.update_layout(barmode="group", title="Points per problem", **LAYOUT)
    return render_page(
        request,
        "hipho_exams/hipho_exam.html",
        {
            "exam_id": exam_id,
            "label": first.label,
            "page": page,
            "cutoffs": first.summary.get("cutoffs") or {},
            "full_marks": first.summary.get("full_marks"),
            "human_full": first.summary.get("human_full"),
            "figures": _exam_figures(exam_id),
            "charts": [chart(fig, "hipho-exam-chart")] if problem_ids else [],
        },
        [summary_table, problem_table],
    )


def _exam_figures(exam_id: str) -> list[dict[str, str]]:
    from django.urls import reverse

    from hipho_exams.figures import exam_figures

    ids = list(
        LeaderboardEntry.objects.filter(family="hipho", group=exam_id)
        .values_list("benchmark_id", flat=True)
        .distinct()
    )
    return [
        {
            "url": reverse("leaderboard:hipho_figure", args=[exam_id, f["p"], f["f"]]),
            "caption": f["caption"],
        }
        for f in exam_figures(exam_id, ids)
    ]


def hipho_figure(request, exam_id: str, p: int, f: int):
    from django.http import FileResponse

    from hipho_exams.figures import figure_file

    ids = list(
        LeaderboardEntry.objects.filter(family="hipho", group=exam_id)
        .values_list("benchmark_id", flat=True)
        .distinct()
    )
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
