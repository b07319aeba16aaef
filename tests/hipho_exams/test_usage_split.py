"""Judge tokens and cost are never counted as the model's: the run, the leaderboard entry, the
model page and the API keep them apart, and cost per point uses the model's own cost.

The figures are the issue's own (a model page once showed "305,500 tokens, $0.7649, cost per
point $0.0096" where the model's usage was 6,000 tokens and $0.00126)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from api.serializers import entry_json, run_json
from catalog.models import Benchmark
from jobs.models import LLMCall
from jobs.services import run_aggregate
from leaderboard.models import LeaderboardEntry
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_judge_usage_is_kept_apart_from_the_models(client):
    bench = Benchmark.objects.create(
        slug="hipho/podiumdemo-2025",
        name="Demo exam",
        family="hipho",
        version="1",
        config={"source": "dir", "path": "data/hipho_demo", "exam": "podiumdemo-2025"},
    )
    model = f.model("solver")
    run = f.run(model, bench, None, total_items=0, done_items=0)
    for purpose, tokens_in, tokens_out, cost in (
        ("model", 5_000, 1_000, 0.00126),
        ("judge", 290_000, 9_500, 0.76364),
    ):
        LLMCall.objects.create(
            run=run,
            purpose=purpose,
            request_hash=purpose,
            model=purpose,
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            cost_usd=cost,
        )
    run = run_aggregate(run_id=run.pk)
    assert (run.input_tokens, run.output_tokens, run.cost_usd) == (
        5_000,
        1_000,
        pytest.approx(0.00126),
    )
    assert (run.judge_input_tokens, run.judge_output_tokens) == (290_000, 9_500)
    assert run.judge_cost_usd == pytest.approx(0.76364)

    entry = LeaderboardEntry.objects.get(model=model, benchmark=bench)
    assert entry.cost_usd == pytest.approx(0.00126) and entry.judge_cost_usd == pytest.approx(
        0.76364
    )
    assert (entry.input_tokens, entry.judge_input_tokens) == (5_000, 290_000)
    assert entry_json(entry)["cost_usd"] == pytest.approx(0.00126)
    assert entry_json(entry)["judge_cost_usd"] == pytest.approx(0.76364)
    assert run_json(run)["judge_input_tokens"] == 290_000 and run_json(run)["input_tokens"] == 5_000

    html = client.get(reverse("leaderboard:model", args=["solver"])).content.decode()
    assert "5,000 in / 1,000 out" in html and "$0.0013" in html
    assert "299,500 tokens, $0.7636" in html  # the judge line, apart
    assert "305,500" not in html and "$0.7649" not in html  # never the sum
