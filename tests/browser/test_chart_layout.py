"""Chart layout at desktop and phone widths: the title (an HTML caption), the legend, the plot
and the tick labels never overlap, and nothing is drawn outside the chart's box."""

import pytest
from django.urls import reverse

from tests.leaderboard.factories import populated_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# every box of one chart: caption, legend, plot area, tick labels, mode bar (when shown)
BOXES = """box => {
  const r = el => { const b = el.getBoundingClientRect();
                    return {l: b.left, t: b.top, r: b.right, b: b.bottom, w: b.width, h: b.height}; };
  const q = s => [...box.querySelectorAll(s)].filter(e => e.getBoundingClientRect().width > 0);
  return {
    box: r(box),
    title: q('figcaption.chart-title').map(r)[0] || null,
    legend: q('g.legend').map(r)[0] || null,
    plot: q('.nsewdrag').map(r)[0] || null,
    ticks: q('g.xtick text, g.ytick text').map(r),
    modebar: q('.modebar').map(r)[0] || null,
  };
}"""


def _overlap(a, b) -> bool:
    return (
        a["l"] < b["r"] - 1 and b["l"] < a["r"] - 1 and a["t"] < b["b"] - 1 and b["t"] < a["b"] - 1
    )


@pytest.mark.parametrize("width", [1280, 360])
def test_titles_legends_plots_and_tick_labels_do_not_collide(live_server, browser, width):
    populated_site()
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    seen = 0
    for url in (reverse("leaderboard:hanabi"), reverse("leaderboard:chess")):
        page.goto(live_server.url + url)
        for chart in page.eval_on_selector_all("[data-chart]", "els => els.map(e => e.id)"):
            page.wait_for_selector(f'#{chart}[data-drawn="1"]', timeout=30_000)
            page.hover(f"#{chart}") if not phone else None  # the mode bar shows on hover
            b = page.eval_on_selector(f"#{chart}", f"el => ({BOXES})(el.closest('figure'))")
            assert b["title"] and b["plot"], (url, chart)
            assert b["title"]["b"] <= b["plot"]["t"], (url, chart, "title over the plot")
            if b["legend"]:
                assert not _overlap(b["title"], b["legend"]), (url, chart, "legend on the title")
                assert not _overlap(b["legend"], b["plot"]), (url, chart, "legend on the plot")
            if b["modebar"]:
                assert not _overlap(b["title"], b["modebar"]), (url, chart, "toolbar on the title")
            for t in b["ticks"]:  # long model names get the margin they need, not cut off
                assert b["box"]["l"] - 1 <= t["l"] and t["r"] <= b["box"]["r"] + 1, (url, chart, t)
                assert t["b"] <= b["box"]["b"] + 1, (url, chart, t)
            seen += 1
    assert seen >= 4
    context.close()
