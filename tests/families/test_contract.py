"""The family contract, checked for every registered family (the three real ones and the
test-only Nim family registered from tests/conftest.py): defaults validate, item keys are
stable, specs are JSON, built-in players evaluate, aggregate gives the headline and its SE in
the family's typed metrics, and the results reach the overview, the family's pages and viewers
and the API. Evaluations are pure and shared between the tests (one per family per session)."""

from __future__ import annotations

import json
import math
import typing
from functools import cache

import pytest
from django.urls import reverse

from evaluators.base import EvalContext, ItemKey, ModelConfig, StoredOutcome
from evaluators.registry import FAMILIES, FamilySpec
from tests.leaderboard import factories
from tests.requirements import require

SLUGS = list(FAMILIES)
MAX_ITEMS = 12  # items the first demo player evaluates (enough for a standard error everywhere)


def _spec(slug: str) -> FamilySpec:
    if slug == "chess":
        from games.chess.engine import EngineNotFoundError, find_stockfish

        try:
            find_stockfish()
        except EngineNotFoundError:
            require(False, "Stockfish binary (Debian package stockfish)")
    return FAMILIES[slug]


def _no_model(*args, **kwargs):
    raise AssertionError("a built-in player called a language model")


def _builtin(name: str) -> ModelConfig:
    return ModelConfig(slug=f"builtin-{name}", model=f"builtin/{name}")


@cache
def _played(slug: str) -> tuple[dict, list[tuple[str, StoredOutcome]], dict]:
    """(validated config of the first demo benchmark, [(player, outcome)], aggregate metrics of
    the first demo player's outcomes)."""
    spec = FAMILIES[slug]
    bench = spec.demo_benchmarks[0]
    evaluator = spec.evaluator
    config = evaluator.validate_config(bench["config"])
    keys = evaluator.items(config, samples=2)
    ctx = EvalContext(generate=_no_model)
    played = []
    for i, player in enumerate(spec.demo_players):
        for key in keys[:MAX_ITEMS] if i == 0 else keys[:1]:
            out = evaluator.evaluate(config=config, model=_builtin(player), item=key, ctx=ctx)
            played.append(
                (
                    player,
                    StoredOutcome(
                        key=key.key,
                        sample_index=key.sample_index,
                        state="done",
                        score=out.score,
                        scores=out.scores,
                        details=out.details,
                    ),
                )
            )
    first = [o for p, o in played if p == spec.demo_players[0]]
    metrics = evaluator.aggregate(config=config, outcomes=first)
    return config, played, metrics


@pytest.mark.parametrize("slug", SLUGS)
def test_it_validates_every_default_benchmark_config_idempotently(slug):
    spec = _spec(slug)
    assert spec.default_benchmarks, f"{slug} ships no default benchmark"
    for bench in spec.default_benchmarks:
        config = spec.evaluator.validate_config(bench["config"])
        assert spec.evaluator.validate_config(config) == config, bench["slug"]


@pytest.mark.parametrize("slug", SLUGS)
def test_it_lists_stable_unique_item_keys(slug):
    spec = _spec(slug)
    config = spec.evaluator.validate_config(spec.demo_benchmarks[0]["config"])
    first = spec.evaluator.items(config, samples=2)
    assert first == spec.evaluator.items(config, samples=2)
    assert all(isinstance(k, ItemKey) for k in first)
    assert len({(k.key, k.sample_index) for k in first}) == len(first) > 0
    # more samples, more items (repeats of a problem, or more seeded games)
    assert len(spec.evaluator.items(config, samples=1)) < len(first)


@pytest.mark.parametrize("slug", SLUGS)
def test_it_builds_a_json_spec_that_is_deterministic(slug):
    spec = _spec(slug)
    config = spec.evaluator.validate_config(spec.demo_benchmarks[0]["config"])
    one = spec.evaluator.spec(config)
    assert json.loads(json.dumps(one)) == one
    assert spec.evaluator.spec(config) == one


@pytest.mark.parametrize("slug", SLUGS)
def test_its_builtin_players_evaluate_without_a_model(slug):
    _spec(slug)
    _, played, _ = _played(slug)
    assert {p for p, _ in played} == set(FAMILIES[slug].demo_players)
    for player, outcome in played:
        assert outcome.score is not None and math.isfinite(outcome.score), (player, outcome.key)
        json.dumps(outcome.details), json.dumps(dict(outcome.scores))  # stored as JSON


@pytest.mark.parametrize("slug", SLUGS)
def test_its_aggregate_gives_the_headline_and_its_se_in_the_typed_metrics(slug):
    spec = _spec(slug)
    _, played, metrics = _played(slug)
    assert isinstance(metrics["score"], (int, float)) and math.isfinite(metrics["score"])
    assert isinstance(metrics["score_se"], (int, float)) and metrics["score_se"] >= 0
    declared = typing.get_type_hints(spec.metrics_type)
    assert set(metrics) <= set(declared), (
        f"keys missing from {spec.metrics}: {set(metrics) - set(declared)}"
    )
    assert json.loads(json.dumps(metrics)) == metrics
    entries = spec.entry_values(metrics, "demo")
    assert entries and all(e.score == metrics["score"] or metrics.get("exams") for e in entries)


def _stored_site(slug: str):
    """One model's run of this family stored with the aggregated metrics and its items."""
    spec = FAMILIES[slug]
    config, played, metrics = _played(slug)
    bench = factories.benchmark(
        spec.demo_benchmarks[0]["slug"], slug, config=config, name=spec.demo_benchmarks[0]["name"]
    )
    model = factories.model(f"contract-{slug}", display_name=f"Contract {spec.label}")
    run = factories.run(model, bench, metrics)
    first = spec.demo_players[0]
    items = [
        factories.item(
            run,
            o.key,
            sample_index=o.sample_index,
            score=o.score,
            scores=dict(o.scores),
            details=dict(o.details),
        )
        for p, o in played
        if p == first
    ]
    return model, run, items


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_its_results_appear_on_the_overview_and_its_pages(client, slug):
    spec = _spec(slug)
    model, run, items = _stored_site(slug)
    overview = client.get(reverse("leaderboard:home")).content.decode()
    assert spec.label in overview and model.display_name in overview
    assert f'href="{reverse(f"leaderboard:{spec.page}")}"' in overview  # in the nav
    page = client.get(reverse(f"leaderboard:{spec.page}"))
    assert page.status_code == 200 and model.display_name in page.content.decode()
    for viewer in spec.viewers:
        assert (
            client.get(reverse(f"leaderboard:{viewer.url_name}", args=[items[0].pk])).status_code
            == 200
        )
    item_page = client.get(reverse("leaderboard:item", args=[items[0].pk])).content.decode()
    for viewer in spec.viewers:
        assert reverse(f"leaderboard:{viewer.url_name}", args=[items[0].pk]) in item_page


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_its_api_endpoints_answer(client, slug):
    spec = _spec(slug)
    model, run, items = _stored_site(slug)
    board = client.get(f"/api/leaderboards/{slug}").json()
    assert any(e["model"] == model.slug for e in board["results"]), board
    headline = client.get(f"/api/leaderboard?family={slug}").json()
    assert any(f["family"] == slug for m in headline["results"] for f in m["families"])
    enum = client.get("/api/openapi.json").json()["components"]["schemas"]["FamilyScore"][
        "properties"
    ]["family"]["enum"]
    assert slug in enum
    game = client.get(f"/api/games/{items[0].pk}")
    assert game.status_code == (200 if spec.game else 404), game.content
