"""Overview, model, benchmark and run pages. They read LeaderboardEntry / FamilyScore / Run rows;
nothing here aggregates item rows."""

from __future__ import annotations

import json

from django.db.models import F, Q
from django.shortcuts import get_object_or_404
from django.urls import reverse

from catalog.models import Benchmark, ModelEntry
from evaluators.registry import FAMILIES as FAMILY_REGISTRY
from jobs.models import ItemResult, Run
from jobs.public_errors import error_for
from leaderboard.common_set import FamilyRanking, Point, rank_family
from leaderboard.models import FamilyScore, LeaderboardEntry
from leaderboard.page_cache import cached_page, fingerprint
from leaderboard.pages import (
    fmt,
    interval_text,
    model_url,
    money,
    paginate,
    pm,
    render_page,
    run_url,
    score_text,
)
from leaderboard.ranks import rank_intervals, rank_text
from leaderboard.services import entry_completeness, run_cache_use
from leaderboard.summaries import point_key
from leaderboard.tables import Cell, Column, Table, column_group
from leaderboard.urls_helpers import item_url


def _families() -> list[tuple[str, str]]:
    """[(slug, label)] of the registered families, in registry order (read per request, so a
    family registered at start is always included)."""
    return [(slug, spec.label) for slug, spec in FAMILY_REGISTRY.items()]


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
    for key, lookup in (
        ("size_min", "parameter_count_b__gte"),
        ("size_max", "parameter_count_b__lte"),
    ):
        raw = request.GET.get(key, "")
        try:
            models = models.filter(**{lookup: float(raw)}) if raw else models
        except ValueError:
            pass
    q = request.GET.get("q", "").strip()
    if q:
        models = models.filter(Q(display_name__icontains=q) | Q(slug__icontains=q))
    return models


SANITY_MODELS = (
    "builtin/reference",
)  # the grader sanity check: reference answers through the grader


_RANKINGS: dict[str, tuple] = {}  # fingerprint of the read model -> rankings (one per process)


def family_rankings() -> tuple[dict[str, FamilyRanking], dict[str, dict[str, str]]]:
    """family_rankings_build, kept per process until the read model changes (every filter, sort
    and page of the overview shares it; the fingerprint is the page cache's own)."""
    key = fingerprint()
    hit = _RANKINGS.get(key)
    if hit is None:
        hit = family_rankings_build()
        _RANKINGS.clear()
        _RANKINGS[key] = hit
    return hit


def family_rankings_build() -> tuple[dict[str, FamilyRanking], dict[str, dict[str, str]]]:
    """Per family: the common set, the ranked models and everyone's coverage (leaderboard.common_set),
    plus a label for each benchmark key. Reads LeaderboardEntry rows only (about models x benchmarks)."""
    rows = (
        LeaderboardEntry.objects.filter(norm__isnull=False)
        .values_list(
            "model_id",
            "family",
            "group",
            "benchmark_id",
            "part",
            "norm",
            "norm_se",
            "label",
            "benchmark__slug",
            "summary__sanity_check",
            "model__litellm_model",
            "summary__n_items",
            "run__done_items",
        )
        .order_by("run__aggregated_at", "id")
    )
    points: dict[str, dict[tuple[int, str], Point]] = {}
    size: dict[tuple[str, int, str], int] = {}
    labels: dict[str, dict[str, str]] = {}
    sanity: set[int] = set()
    for (
        model_id,
        family,
        group,
        bench_id,
        part,
        norm,
        norm_se,
        label,
        slug,
        is_sanity,
        litellm,
        n_items,
        run_done,
    ) in rows:
        if norm is None:  # the query excludes them; the type does not know
            continue
        key = point_key(family, group=group, benchmark_id=bench_id, part=part)
        # a HiPhO exam graded alone and in a suite: the more complete entry, then the newer
        n = entry_completeness({"n_items": n_items}, run_done)
        if n >= size.get((family, model_id, key), -1):
            size[(family, model_id, key)] = n
            points.setdefault(family, {})[(model_id, key)] = Point(model_id, key, norm, norm_se)
        labels.setdefault(family, {})[key] = (
            label if key == group else (slug + (f" [{part}]" if part else ""))
        )
        if is_sanity is True or litellm in SANITY_MODELS:
            sanity.add(model_id)
    return {f: rank_family(list(pts.values()), sanity) for f, pts in points.items()}, labels


@cached_page
def overview(request):
    rankings, key_labels = family_rankings()
    show_all = request.GET.get("all") == "1"
    models = list(_model_filters(request, ModelEntry.objects.filter(active=True)))
    if not show_all:  # models that never ran anything are rows of dashes: hidden unless asked for
        ran = {m for r in rankings.values() for m in r.own}
        hidden = sum(1 for m in models if m.id not in ran)
        models = [m for m in models if m.id in ran]
    else:
        hidden = 0

    families = _families()
    first = families[0][0] if families else "name"
    sort = request.GET.get("sort", first)
    sort = sort if sort in {"name", "org", "size"} | {f for f, _ in families} else first
    direction = "asc" if request.GET.get("dir") == "asc" else "desc"

    def key(m):
        if sort == "name":
            return (0, m.display_name.lower())
        if sort == "org":
            return (0, m.organisation.lower())
        if sort == "size":
            return (m.parameter_count_b is None, m.parameter_count_b or 0.0)
        r = rankings.get(sort)
        if r is None or m.id not in r.own:
            return (3, 0.0, 0.0)
        if r.ranked(m.id):  # ranked models first, by their score over the common set
            return (0, r.scores[m.id][0] or 0.0, 0.0)
        group = 2 if m.id in r.excluded else 1
        return (group, r.coverage.get(m.id, 0), r.own[m.id][0] or 0.0)

    models.sort(key=key, reverse=direction == "desc")
    if direction == "desc" and sort in rankings:  # ranked, then unranked, then sanity, then none
        models.sort(key=lambda m: key(m)[0])
    elif direction == "desc":
        models.sort(key=lambda m: key(m)[0] if sort == "size" else 0)
    page = paginate(request, models)

    columns = [
        Column("model", "Model", sort="name"),
        Column("slug", "Slug", hidden=True),
        Column("organisation", "Organisation", sort="org", optional=True),
        Column("open_weights", "Open weights", optional=True),
        Column("size_b", "Size (B)", numeric=True, sort="size", optional=True),
        Column("modality", "Modality", optional=True),
    ]
    for family, label in families:
        columns += column_group(
            Column(
                family,
                label,
                numeric=True,
                sort=family,
                title="ranked: mean % of the maximum over the family's common benchmarks ± SE",
            ),
            ("se", "SE"),
            ("rank", "rank"),
            ("coverage", "common benchmarks run"),
            ("ranked", "ranked"),
            sep="_",
        )
    table = Table(
        "overview",
        "Overview",
        columns,
        caption="Per family, models are ranked only over the family's common set of benchmarks "
        "(listed below), on their mean % of the maximum ± SE; ranks are intervals (models "
        "whose 95% intervals overlap share ranks). Models that ran only part of the set "
        "show their coverage and are not ranked; the grader sanity check is never ranked.",
    )
    for m in page.object_list:
        cells = {
            "model": Cell(m.display_name, href=model_url(m.slug)),
            "slug": Cell(m.slug),
            "organisation": Cell(m.organisation),
            "open_weights": Cell(m.open_weights, "yes" if m.open_weights else "no"),
            "size_b": Cell(
                m.parameter_count_b, fmt(m.parameter_count_b, 0) if m.parameter_count_b else "—"
            ),
            "modality": Cell(m.modality),
        }
        for family, _ in families:
            r = rankings.get(family)
            if r is None or m.id not in r.own:
                cells[family] = Cell(None)
                continue
            n_common, covered = len(r.common), r.coverage.get(m.id, 0)
            cells[f"{family}_coverage"] = Cell(covered)
            cells[f"{family}_ranked"] = Cell(r.ranked(m.id))
            if r.ranked(m.id):
                score, se = r.scores[m.id]
                interval = r.ranks.get(m.id)
                cells[family] = Cell(
                    round(score, 4) if score is not None else None,
                    pm(score, se),
                    href=model_url(m.slug) + f"#{family}",
                    sub=f"rank {rank_text(interval)} · {covered}/{n_common} common",
                )
                cells[f"{family}_se"] = Cell(se)
                cells[f"{family}_rank"] = Cell(rank_text(interval))
                continue
            score, se = r.own[m.id]
            why = (
                "sanity check, not ranked"
                if m.id in r.excluded
                else f"not ranked · ran {covered} of {n_common} common"
            )
            cells[family] = Cell(
                None,
                pm(score, se),
                href=model_url(m.slug) + f"#{family}",
                sub=why,
                title="mean over the benchmarks this model ran; not comparable with the ranked rows",
            )
            cells[f"{family}_se"] = Cell(se)
        css = "sanity" if any(m.id in r.excluded for r in rankings.values()) else ""
        table.add(_css=css, **cells)

    common_sets = [
        {
            "family": label,
            "n": len(rankings[f].common),
            "ranked": len(rankings[f].scores),
            "benchmarks": [key_labels[f].get(k, k) for k in rankings[f].common],
        }
        for f, label in families
        if f in rankings
    ]
    organisations = (
        ModelEntry.objects.filter(active=True)
        .exclude(organisation="")
        .values_list("organisation", flat=True)
        .distinct()
        .order_by("organisation")
    )
    return render_page(
        request,
        "leaderboard/overview.html",
        {
            "page": page,
            "sort": sort,
            "dir": direction,
            "organisations": list(organisations),
            "modalities": ModelEntry.Modality.choices,
            "filters": request.GET,
            "common_sets": common_sets,
            "hidden_models": hidden,
            "show_all": show_all,
        },
        [table],
    )


@cached_page
def model_detail(request, slug):
    model = get_object_or_404(ModelEntry, slug=slug)
    entries = list(
        LeaderboardEntry.objects.filter(model=model)
        .select_related("benchmark")
        .order_by("family", "benchmark__slug", "part")
    )
    family_scores = {s.family: s for s in FamilyScore.objects.filter(model=model)}
    table = Table(
        "model-results",
        "Results",
        [
            Column("family", "Family"),
            Column("benchmark", "Benchmark"),
            Column("part", "Part"),
            Column("score", "Score", numeric=True),
            Column("score_se", "SE", hidden=True),
            Column("norm", "% of max", numeric=True),
            Column("tokens", "Tokens (in/out)", numeric=True),
            Column(
                "cost",
                "Cost (USD)",
                numeric=True,
                title="the model's own calls (the judge's are apart)",
            ),
            Column(
                "cost_per_point",
                "Cost per point",
                numeric=True,
                title="the model's cost of the run / its % of max (judge cost excluded)",
            ),
            Column(
                "judge",
                "Judge tokens / cost",
                numeric=True,
                title="the step/answer judge's usage: never counted as the model's",
            ),
            Column(
                "replies", "Replies", title="fresh model calls, or answered from the response cache"
            ),
            Column("run", "Run", hidden=True),
        ],
        file=f"model-{model.slug}-results",
    )
    seen_runs: set[int] = set()
    total_cost = total_in = total_out = 0.0
    judge_cost = judge_tokens = 0.0
    for e in entries:
        href = run_url(e.run_id)
        cost_per_point = e.cost_usd / e.norm if e.norm and e.norm > 0 else None
        table.add(
            family=Cell(e.family, dict(_families()).get(e.family, e.family)),
            benchmark=Cell(
                e.benchmark.slug, e.benchmark.name, href=reverse_benchmark(e.benchmark_id)
            ),
            part=Cell(e.part or None, e.label if e.part else "—"),
            score=Cell(
                e.score,
                score_text(
                    e.score, e.score_se, e.summary.get("elo_censored"), e.summary.get("elo_ci95")
                ),
                href=href,
            ),
            score_se=Cell(e.score_se),
            norm=Cell(e.norm, fmt(e.norm), href=href),
            tokens=Cell(
                e.input_tokens + e.output_tokens, f"{e.input_tokens:,} / {e.output_tokens:,}"
            ),
            cost=Cell(e.cost_usd, money(e.cost_usd), href=href),
            cost_per_point=Cell(cost_per_point, money(cost_per_point)),
            run=Cell(e.run_id),
            judge=Cell(
                e.judge_cost_usd,
                f"{e.judge_input_tokens + e.judge_output_tokens:,} / {money(e.judge_cost_usd)}"
                if e.judge_input_tokens or e.judge_cost_usd
                else "—",
            ),
            replies=_replies_cell(e.summary.get("cache")),
        )
        if e.run_id not in seen_runs:
            seen_runs.add(e.run_id)
            total_cost += e.cost_usd
            total_in += e.input_tokens
            total_out += e.output_tokens
            judge_cost += e.judge_cost_usd
            judge_tokens += e.judge_input_tokens + e.judge_output_tokens
    runs = paginate(
        request,
        Run.objects.filter(model=model)
        .select_related("benchmark", "job")
        .defer("spec", "metrics", "benchmark__config")
        .annotate(elo_censored=F("metrics__elo_censored"), elo_ci95=F("metrics__elo_ci95"))
        .order_by("-id"),
        25,
    )
    shown_runs = {e.run_id for e in entries}
    runs_table = Table(
        "model-runs",
        "All runs (history)",
        [
            Column("run", "Run"),
            Column("job", "Job"),
            Column("benchmark", "Benchmark"),
            Column(
                "shown",
                "On the board",
                title="the run that represents this (model, benchmark): the most complete, then the newest",
            ),
            Column("status", "Status"),
            Column("items", "Items done/failed/total", numeric=True),
            Column("score", "Score", numeric=True),
            Column("cost", "Model cost", numeric=True),
            Column("judge_cost", "Judge cost", numeric=True),
        ],
        file=f"model-{model.slug}-runs",
    )
    for run in runs.object_list:
        runs_table.add(
            run=Cell(run.id, f"#{run.id}", href=run_url(run.id)),
            job=Cell(run.job_id, f"#{run.job_id}", href=job_url(run.job_id)),
            benchmark=Cell(run.benchmark.slug),
            shown=Cell(
                run.id in shown_runs,
                "on the board" if run.id in shown_runs else "history",
                badge="done" if run.id in shown_runs else "",
            ),
            status=Cell(run.status),
            items=Cell(run.done_items, f"{run.done_items}/{run.failed_items}/{run.total_items}"),
            score=Cell(
                run.score,
                score_text(run.score, run.score_se, run.elo_censored, run.elo_ci95),
                href=run_url(run.id),
            ),
            cost=Cell(run.cost_usd, money(run.cost_usd)),
            judge_cost=Cell(run.judge_cost_usd, money(run.judge_cost_usd)),
        )
    families = [(f, label, family_scores.get(f)) for f, label in _families()]
    from chess_positions.numbers import (
        model_reasoning_table,  # the chess family's reasoning figures
    )

    reasoning = model_reasoning_table(entries, run_url)
    return render_page(
        request,
        "leaderboard/model.html",
        {
            "model": model,
            "families": families,
            "page": runs,
            "total_cost": money(total_cost),
            "total_tokens": f"{int(total_in):,} in / {int(total_out):,} out",
            "judge_usage": f"{int(judge_tokens):,} tokens, {money(judge_cost)}"
            if judge_tokens or judge_cost
            else None,
        },
        [table, runs_table, *([reasoning] if reasoning else [])],
    )


def _replies_cell(cache) -> Cell:
    """Whether a run's replies were paid for here or came from the response cache (and from
    which: another job's cache means this run's tokens and cost show as 0 though the model did answer)."""
    if not isinstance(cache, dict) or not cache.get("calls"):
        return Cell(None)
    calls, hits, other = cache.get("calls", 0), cache.get("hits", 0), cache.get("other_jobs", 0)
    if not hits:
        return Cell("fresh", f"{calls:,} fresh")
    text = f"{hits:,} of {calls:,} cached" + (f" ({other:,} from another job)" if other else "")
    return Cell(
        f"{hits}/{calls} cached; {other} from another job",
        text,
        title="answered from the response cache; tokens and cost were counted where first paid",
    )


def reverse_benchmark(benchmark_id: int) -> str:
    return reverse("leaderboard:benchmark", args=[benchmark_id])


def job_url(job_id: int) -> str:
    return reverse("leaderboard:job", args=[job_id])


@cached_page
def benchmark_list(request):
    table = Table(
        "benchmarks",
        "Benchmarks",
        [
            Column("slug", "Benchmark"),
            Column("name", "Name"),
            Column("family", "Family"),
            Column("version", "Version"),
            Column("samples", "Default samples", numeric=True),
            Column("description", "Description"),
        ],
    )
    for b in Benchmark.objects.filter(active=True):
        table.add(
            slug=Cell(b.slug, href=reverse_benchmark(b.id)),
            name=Cell(b.name),
            family=Cell(b.family),
            version=Cell(b.version),
            samples=Cell(b.default_samples),
            description=Cell(b.description[:200]),
        )
    return render_page(request, "leaderboard/benchmarks.html", {}, [table])


@cached_page
def benchmark_detail(request, pk):
    benchmark = get_object_or_404(Benchmark, pk=pk)
    entries = list(
        LeaderboardEntry.objects.filter(benchmark=benchmark)
        .select_related("model")
        .order_by("part", "-score")
    )
    intervals = (
        rank_intervals([(e.score, e.score_se) for e in entries])
        if not any(e.part for e in entries)
        else [None] * len(entries)
    )
    table = Table(
        "benchmark-results",
        f"Results on {benchmark.name}",
        [
            Column("rank", "Rank"),
            Column("model", "Model"),
            Column("part", "Part"),
            Column("score", "Score", numeric=True),
            Column("score_se", "SE", hidden=True),
            Column("interval", "95% interval", numeric=True, split=("low", "high")),
            Column("run", "Run", hidden=True),
        ],
        file=f"benchmark-{benchmark.pk}-results",
    )
    for e, interval in zip(entries, intervals):
        table.add(
            rank=Cell(rank_text(interval)),
            model=Cell(e.model.display_name, href=model_url(e.model.slug)),
            part=Cell(e.part or None, e.label if e.part else "—"),
            score=Cell(e.score, pm(e.score, e.score_se, 2), href=run_url(e.run_id)),
            score_se=Cell(e.score_se),
            interval=Cell(
                [e.score_lo, e.score_hi], interval_text(e.score_lo, e.score_hi, e.score_se, 2)
            ),
            run=Cell(e.run_id),
        )
    return render_page(
        request,
        "leaderboard/benchmark.html",
        {
            "benchmark": benchmark,
            "config_json": json.dumps(benchmark.config, indent=2, sort_keys=True),
        },
        [table],
    )


def run_detail(request, pk):
    run = get_object_or_404(Run.objects.select_related("model", "benchmark", "job"), pk=pk)
    items_qs = (
        ItemResult.objects.filter(run=run)
        .order_by("item_key", "sample_index")
        .only("id", "item_key", "sample_index", "state", "score", "attempts", "error", "run_id")
    )
    state = request.GET.get("state", "")
    if state in ItemResult.State.values:
        items_qs = items_qs.filter(state=state)
    page = paginate(request, items_qs)
    table = Table(
        "run-items",
        "Items",
        [
            Column("item_id", "Item id", hidden=True),
            Column("item", "Item"),
            Column("sample", "Sample", numeric=True),
            Column("state", "State"),
            Column("score", "Score", numeric=True),
            Column("attempts", "Attempts", numeric=True),
            Column("error", "Error"),
            Column("view", "View"),
        ],
        file=f"run-{run.pk}-items",
    )
    family = run.benchmark.family
    for item in page.object_list:
        views = item_url(item.id, family)
        table.add(
            item_id=Cell(item.id),
            item=Cell(item.item_key, href=views[0][1]),
            sample=Cell(item.sample_index),
            state=Cell(item.state, badge="bad" if item.state == "failed" else ""),
            score=Cell(item.score, fmt(item.score, 3)),
            attempts=Cell(item.attempts),
            error=Cell(error_for(request.user, item.error)[:200] or None),
            view=Cell(" · ".join(label for label, _ in views), href=views[-1][1]),
        )
    return render_page(
        request,
        "leaderboard/run.html",
        {
            "run": run,
            "page": page,
            "cache": run_cache_use(run),
            "state": state,
            "states": ItemResult.State.values,
            "spec_json": json.dumps(run.spec, indent=2, sort_keys=True),
            "metrics_json": json.dumps(run.metrics, indent=2, sort_keys=True),
        },
        [table],
    )
