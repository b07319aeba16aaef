"""Overview, model, benchmark and run pages. They read LeaderboardEntry / FamilyScore / Run rows;
nothing here aggregates item rows."""

from __future__ import annotations

import json

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.urls import reverse

from catalog.models import Benchmark, ModelEntry
from jobs.models import ItemResult, Run
from leaderboard.models import FamilyScore, LeaderboardEntry
from leaderboard.page_cache import cached_page
from leaderboard.pages import (
    fmt,
    model_url,
    money,
    paginate,
    pm,
    render_page,
    run_url,
)
from leaderboard.ranks import rank_intervals, rank_text
from leaderboard.tables import Cell, Column, Table
from leaderboard.urls_helpers import item_url

FAMILIES = list(Benchmark.Family.choices)  # [(value, label)]
FAMILY_LABELS = dict(FAMILIES)
_SORTS = {"name", "org", "size"} | {f for f, _ in FAMILIES}


def _model_filters(request, models):
    org = request.GET.get("org", "")
    if org:
        models = models.filter(organisation=org)
    open_weights = request.GET.get("open", "")
    if open_weights in ("yes", "no"):
        models = models.filter(open_weights=open_weights == "yes")
    modality = request.GET.get("modality", "")
    if modality in ModelEntry.Modality.values:
        models = models.filter(modality=modality)
    for key, lookup in (("size_min", "parameter_count_b__gte"), ("size_max", "parameter_count_b__lte")):
        raw = request.GET.get(key, "")
        try:
            models = models.filter(**{lookup: float(raw)}) if raw else models
        except ValueError:
            pass
    q = request.GET.get("q", "").strip()
    if q:
        models = models.filter(Q(display_name__icontains=q) | Q(slug__icontains=q))
    return models


@cached_page
def overview(request):
    models = list(_model_filters(request, ModelEntry.objects.filter(active=True)))
    ids = [m.id for m in models]
    scores = {(s.model_id, s.family): s for s in FamilyScore.objects.filter(model_id__in=ids)}
    ranks: dict[tuple[int, str], tuple[int, int] | None] = {}
    for family, _ in FAMILIES:
        pairs = [(scores.get((m.id, family)).score if (m.id, family) in scores else None,
                  scores.get((m.id, family)).score_se if (m.id, family) in scores else None) for m in models]
        for m, interval in zip(models, rank_intervals(pairs)):
            ranks[(m.id, family)] = interval

    sort = request.GET.get("sort", "hipho")
    sort = sort if sort in _SORTS else "hipho"
    direction = "asc" if request.GET.get("dir") == "asc" else "desc"

    def key(m):
        if sort == "name":
            return (0, m.display_name.lower())
        if sort == "org":
            return (0, m.organisation.lower())
        if sort == "size":
            return (m.parameter_count_b is None, m.parameter_count_b or 0.0)
        s = scores.get((m.id, sort))
        return (s is None or s.score is None, s.score if s and s.score is not None else 0.0)

    models.sort(key=key, reverse=direction == "desc")
    if direction == "desc":  # keep unscored rows last either way
        models.sort(key=lambda m: key(m)[0])
    page = paginate(request, models)

    columns = [
        Column("model", "Model", sort="name"), Column("slug", "Slug", hidden=True),
        Column("organisation", "Organisation", sort="org", optional=True),
        Column("open_weights", "Open weights", optional=True),
        Column("size_b", "Size (B)", numeric=True, sort="size", optional=True),
        Column("modality", "Modality", optional=True),
    ]
    for family, label in FAMILIES:
        columns += [
            Column(family, label, numeric=True, sort=family,
                   title="mean % of the maximum over the family's benchmarks ± SE; rank interval below"),
            Column(f"{family}_se", f"{label} SE", hidden=True),
            Column(f"{family}_rank", f"{label} rank", hidden=True),
        ]
    table = Table("overview", "Overview", columns,
                  caption="Headline per family: mean score as % of the maximum over the benchmarks a "
                          "model ran, ± standard error. Ranks are intervals: models whose 95% intervals "
                          "overlap share ranks.")
    for m in page.object_list:
        cells = {
            "model": Cell(m.display_name, href=model_url(m.slug)), "slug": Cell(m.slug),
            "organisation": Cell(m.organisation), "open_weights": Cell(m.open_weights, "yes" if m.open_weights else "no"),
            "size_b": Cell(m.parameter_count_b, fmt(m.parameter_count_b, 0) if m.parameter_count_b else "—"),
            "modality": Cell(m.modality),
        }
        for family, _ in FAMILIES:
            s = scores.get((m.id, family))
            interval = ranks.get((m.id, family))
            if s is None or s.score is None:
                cells[family] = Cell(None)
                continue
            cells[family] = Cell(round(s.score, 4), pm(s.score, s.score_se),
                                 href=model_url(m.slug) + f"#{family}",
                                 sub=f"rank {rank_text(interval)} · {s.n_entries} bench.")
            cells[f"{family}_se"] = Cell(s.score_se)
            cells[f"{family}_rank"] = Cell(rank_text(interval))
        table.add(**cells)

    organisations = (ModelEntry.objects.filter(active=True).exclude(organisation="")
                     .values_list("organisation", flat=True).distinct().order_by("organisation"))
    return render_page(request, "leaderboard/overview.html", {
        "page": page, "sort": sort, "dir": direction, "organisations": list(organisations),
        "modalities": ModelEntry.Modality.choices, "filters": request.GET,
    }, [table])


@cached_page
def model_detail(request, slug):
    model = get_object_or_404(ModelEntry, slug=slug)
    entries = list(LeaderboardEntry.objects.filter(model=model).select_related("benchmark")
                   .order_by("family", "benchmark__slug", "part"))
    family_scores = {s.family: s for s in FamilyScore.objects.filter(model=model)}
    table = Table("model-results", "Results", [
        Column("family", "Family"), Column("benchmark", "Benchmark"), Column("part", "Part"),
        Column("score", "Score", numeric=True), Column("score_se", "SE", hidden=True),
        Column("norm", "% of max", numeric=True), Column("tokens", "Tokens (in/out)", numeric=True),
        Column("cost", "Cost (USD)", numeric=True), Column("cost_per_point", "Cost per point", numeric=True,
                                                           title="cost of the run / its % of max"),
        Column("run", "Run", hidden=True),
    ])
    seen_runs: set[int] = set()
    total_cost = total_in = total_out = 0.0
    for e in entries:
        href = run_url(e.run_id)
        cost_per_point = e.cost_usd / e.norm if e.norm and e.norm > 0 else None
        table.add(
            family=Cell(e.family, FAMILY_LABELS.get(e.family, e.family)),
            benchmark=Cell(e.benchmark.slug, e.benchmark.name, href=reverse_benchmark(e.benchmark_id)),
            part=Cell(e.part or None, e.label if e.part else "—"),
            score=Cell(e.score, pm(e.score, e.score_se, 2), href=href), score_se=Cell(e.score_se),
            norm=Cell(e.norm, fmt(e.norm), href=href),
            tokens=Cell(e.input_tokens + e.output_tokens, f"{e.input_tokens:,} / {e.output_tokens:,}"),
            cost=Cell(e.cost_usd, money(e.cost_usd), href=href),
            cost_per_point=Cell(cost_per_point, money(cost_per_point)), run=Cell(e.run_id),
        )
        if e.run_id not in seen_runs:
            seen_runs.add(e.run_id)
            total_cost += e.cost_usd
            total_in += e.input_tokens
            total_out += e.output_tokens
    runs = paginate(request, Run.objects.filter(model=model).select_related("benchmark", "job").defer("spec", "metrics", "benchmark__config").order_by("-id"), 25)
    runs_table = Table("model-runs", "All runs", [
        Column("run", "Run"), Column("job", "Job"), Column("benchmark", "Benchmark"), Column("status", "Status"),
        Column("items", "Items done/failed/total", numeric=True), Column("score", "Score", numeric=True),
        Column("cost", "Cost", numeric=True),
    ])
    for run in runs.object_list:
        runs_table.add(
            run=Cell(run.id, f"#{run.id}", href=run_url(run.id)),
            job=Cell(run.job_id, f"#{run.job_id}", href=job_url(run.job_id)),
            benchmark=Cell(run.benchmark.slug), status=Cell(run.status),
            items=Cell(run.done_items, f"{run.done_items}/{run.failed_items}/{run.total_items}"),
            score=Cell(run.score, pm(run.score, run.score_se, 2), href=run_url(run.id)),
            cost=Cell(run.cost_usd + run.judge_cost_usd, money(run.cost_usd + run.judge_cost_usd)),
        )
    families = [(f, label, family_scores.get(f)) for f, label in FAMILIES]
    return render_page(request, "leaderboard/model.html", {
        "model": model, "families": families, "page": runs, "total_cost": money(total_cost),
        "total_tokens": f"{int(total_in):,} in / {int(total_out):,} out",
    }, [table, runs_table])


def reverse_benchmark(benchmark_id: int) -> str:
    return reverse("leaderboard:benchmark", args=[benchmark_id])


def job_url(job_id: int) -> str:
    return reverse("leaderboard:job", args=[job_id])


@cached_page
def benchmark_list(request):
    table = Table("benchmarks", "Benchmarks", [
        Column("slug", "Benchmark"), Column("name", "Name"), Column("family", "Family"),
        Column("version", "Version"), Column("samples", "Default samples", numeric=True),
        Column("description", "Description"),
    ])
    for b in Benchmark.objects.filter(active=True):
        table.add(slug=Cell(b.slug, href=reverse_benchmark(b.id)), name=Cell(b.name),
                  family=Cell(b.family), version=Cell(b.version), samples=Cell(b.default_samples),
                  description=Cell(b.description[:200]))
    return render_page(request, "leaderboard/benchmarks.html", {}, [table])


@cached_page
def benchmark_detail(request, pk):
    benchmark = get_object_or_404(Benchmark, pk=pk)
    entries = list(LeaderboardEntry.objects.filter(benchmark=benchmark).select_related("model")
                   .order_by("part", "-score"))
    intervals = rank_intervals([(e.score, e.score_se) for e in entries]) if not any(e.part for e in entries) else [None] * len(entries)
    table = Table("benchmark-results", f"Results on {benchmark.name}", [
        Column("rank", "Rank"), Column("model", "Model"), Column("part", "Part"),
        Column("score", "Score", numeric=True), Column("score_se", "SE", hidden=True),
        Column("interval", "95% interval", numeric=True), Column("run", "Run", hidden=True),
    ])
    for e, interval in zip(entries, intervals):
        table.add(rank=Cell(rank_text(interval)), model=Cell(e.model.display_name, href=model_url(e.model.slug)),
                  part=Cell(e.part or None, e.label if e.part else "—"),
                  score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
                  score_se=Cell(e.score_se),
                  interval=Cell([e.score_lo, e.score_hi], f"[{fmt(e.score_lo, 2)}, {fmt(e.score_hi, 2)}]"),
                  run=Cell(e.run_id))
    return render_page(request, "leaderboard/benchmark.html", {
        "benchmark": benchmark, "config_json": json.dumps(benchmark.config, indent=2, sort_keys=True),
    }, [table])


def run_detail(request, pk):
    run = get_object_or_404(Run.objects.select_related("model", "benchmark", "job"), pk=pk)
    items_qs = ItemResult.objects.filter(run=run).order_by("item_key", "sample_index").only(
        "id", "item_key", "sample_index", "state", "score", "attempts", "error", "run_id")
    state = request.GET.get("state", "")
    if state in ItemResult.State.values:
        items_qs = items_qs.filter(state=state)
    page = paginate(request, items_qs)
    table = Table("run-items", "Items", [
        Column("item", "Item"), Column("sample", "Sample", numeric=True), Column("state", "State"),
        Column("score", "Score", numeric=True), Column("attempts", "Attempts", numeric=True),
        Column("error", "Error"), Column("view", "View"),
    ])
    family = run.benchmark.family
    for item in page.object_list:
        views = item_url(item.id, family)
        table.add(item=Cell(item.item_key, href=views[0][1]), sample=Cell(item.sample_index),
                  state=Cell(item.state, badge="bad" if item.state == "failed" else ""),
                  score=Cell(item.score, fmt(item.score, 3)), attempts=Cell(item.attempts),
                  error=Cell(item.error[:200] or None),
                  view=Cell(" · ".join(label for label, _ in views), href=views[-1][1]))
    return render_page(request, "leaderboard/run.html", {
        "run": run, "page": page, "state": state, "states": ItemResult.State.values,
        "spec_json": json.dumps(run.spec, indent=2, sort_keys=True),
        "metrics_json": json.dumps(run.metrics, indent=2, sort_keys=True),
    }, [table])
