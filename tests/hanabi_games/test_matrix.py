"""The cross-play matrix ranks by the HLE score (0 when the last life is lost) and prints n and
the standard error per cell; the fireworks total is secondary and named as such."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from evaluators.base import EvalContext, ItemKey, ModelConfig, StoredOutcome
from evaluators.hanabi import EVALUATOR
from evaluators.stats import mean_se
from hanabi_games.selectors import crossplay_matrix
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db
SEEDS = range(4)


def metrics_of(config, model, partner=None):
    """Run.metrics as the engine stores them: real games, the real aggregate."""
    outcomes = []
    for seed in SEEDS:
        out = EVALUATOR.evaluate(
            config=config,
            model=model,
            item=ItemKey(f"seed-{seed}"),
            ctx=EvalContext(generate=None, resolve_model=lambda s: partner),
        )
        outcomes.append(
            StoredOutcome(f"seed-{seed}", 0, "done", out.score, out.scores, out.details)
        )
    return EVALUATOR.aggregate(config=config, outcomes=outcomes), outcomes


def test_the_matrix_shows_hle_scores_with_n_and_se_and_fireworks_as_secondary():
    iggi_cfg = ModelConfig(slug="builtin-iggi", model="builtin/iggi")
    flawed_cfg = ModelConfig(slug="builtin-flawed", model="builtin/flawed")
    iggi, flawed = f.model("builtin-iggi"), f.model("builtin-flawed")
    selfplay = f.benchmark("hanabi/bots-2p", "hanabi", config={"players": 2, "setting": None})
    cross = {"players": 2, "setting": None, "mode": "cross", "partners": ["builtin-iggi"]}
    crossb = f.benchmark("hanabi/x-iggi", "hanabi", config=cross)
    m_iggi, _ = metrics_of({"players": 2, "setting": None}, iggi_cfg)
    m_flawed, flawed_games = metrics_of({"players": 2, "setting": None}, flawed_cfg)
    m_cross, _ = metrics_of(cross, flawed_cfg, partner=iggi_cfg)
    f.run(iggi, selfplay, m_iggi)
    f.run(flawed, selfplay, m_flawed)
    f.run(flawed, crossb, m_cross)

    # Flawed bombs out: its headline is 0 although cards were on the fireworks
    assert all(o.scores["bomb"] for o in flawed_games)
    assert m_flawed["score"] == m_flawed["mean_hle_score"] == 0.0
    fw, fw_se = mean_se([o.scores["fireworks_score"] for o in flawed_games])
    assert m_flawed["mean_fireworks_score"] == fw > 0 and m_flawed["fireworks_score_se"] == fw_se

    mx = crossplay_matrix(players=2)
    cell = mx["cells"]["builtin-flawed"]["builtin-flawed"]
    assert cell["score"] == 0.0 and cell["games"] == len(SEEDS) and cell["fireworks"] == fw
    assert mx["cells"]["builtin-iggi"]["builtin-iggi"]["score"] == m_iggi["score"]

    out = io.StringIO()
    call_command("hanabi_matrix", "--players", "2", "--fireworks", stdout=out)
    text = out.getvalue()
    assert "HLE score" in text
    n = len(SEEDS)
    assert f"{m_iggi['score']:.2f}±{m_iggi['score_se']:.2f} n={n}" in text
    assert f"{m_cross['score']:.2f}±{m_cross['score_se']:.2f} n={n}" in text
    assert f"0.00±0.00 n={n}" in text and f"fw {fw:.2f}" in text
