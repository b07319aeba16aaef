"""The cross-play heatmap is the agent x agent matrix `hanabi_matrix` prints, with the mean score,
SE and n written in each cell (readable without hovering, so on a phone too)."""

import pytest
from django.urls import reverse

from tests.leaderboard import factories as f

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_heatmap_is_the_agent_matrix_with_values(live_server, page):
    a, b = f.model("alpha"), f.model("beta")
    selfplay, cross = (
        f.benchmark("hanabi/2p-watson", "hanabi"),
        f.benchmark("hanabi/cross-2p", "hanabi"),
    )
    f.run(a, selfplay, f.hanabi_metrics(14.0, 0.5))
    f.run(b, selfplay, f.hanabi_metrics(9.0, 0.7))
    f.run(a, cross, f.hanabi_metrics(11.0, 0.6, mode="cross", partners=["beta"]))
    f.run(b, cross, f.hanabi_metrics(7.5, 0.8, mode="cross", partners=["rule-bot"]))
    page.goto(live_server.url + reverse("leaderboard:hanabi"))
    page.wait_for_selector('#hanabi-cross-heatmap[data-drawn="1"]')
    fig = page.evaluate("""() => { const d = document.getElementById('hanabi-cross-heatmap').data[0];
                                   return {x: d.x, y: d.y, z: d.z}; }""")
    assert fig["x"] == fig["y"] == ["alpha", "beta", "rule-bot"]
    assert fig["z"][0][:2] == [14.0, 11.0] and fig["z"][1][1] == 9.0 and fig["z"][1][2] == 7.5
    texts = page.locator("#hanabi-cross-heatmap svg text").all_text_contents()
    joined = " ".join(texts)
    assert "14.0" in joined and "± 0.6" in joined and "n=10" in joined
    # the same matrix as a table, for reading and download
    assert "11.00 ± 0.60" in page.inner_text('table[data-table="hanabi-matrix"]')
    # axis titles do not run into the legend or colour bar
    xtitle = page.locator("#hanabi-cross-heatmap .g-xtitle").bounding_box()
    bar = page.locator("#hanabi-cross-heatmap .colorbar").bounding_box()
    assert xtitle["x"] + xtitle["width"] <= bar["x"] or xtitle["y"] >= bar["y"] + bar["height"]
    assert page.console.errors == []
