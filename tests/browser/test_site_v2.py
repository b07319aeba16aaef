"""Site-wide behaviour in a real browser: ranking rules on the overview, styled error pages, the
API documentation, sticky table headers, phone width, LaTeX typeset with a payload still inert."""

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.leaderboard import factories as f
from tests.leaderboard.factories import populated_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_overview_ranks_over_the_common_set_only(live_server, page):
    ipho, eupho = f.benchmark("hipho/ipho-2025", "hipho"), f.benchmark("hipho/eupho-2025", "hipho")
    a, b, lone = f.model("alpha"), f.model("beta"), f.model("lone")
    ref = f.model("reference", litellm_model="builtin/reference")
    f.model("idle")
    for m, score in ((a, 20), (b, 15), (ref, 30)):
        f.run(m, ipho, f.hipho_metrics(score, exam_id="ipho-2025"))
        f.run(m, eupho, f.hipho_metrics(score, exam_id="eupho-2025"))
    f.run(lone, eupho, f.hipho_metrics(29.5, exam_id="eupho-2025"))  # best score, one exam only
    page.goto(live_server.url + "/")
    rows = {
        r.locator("td").first.inner_text(): r.inner_text()
        for r in page.locator('table[data-table="overview"] tbody tr').all()
    }
    assert set(rows) == {"Alpha", "Beta", "Lone", "Reference"}  # "idle" never ran: hidden
    assert "rank 1 · 2/2 common" in rows["Alpha"] and "rank 2 · 2/2 common" in rows["Beta"]
    assert (
        "not ranked · ran 1 of 2 common" in rows["Lone"]
        and "sanity check, not ranked" in rows["Reference"]
    )
    order = [
        r.locator("td").first.inner_text()
        for r in page.locator('table[data-table="overview"] tbody tr').all()
    ]
    assert order[:2] == ["Alpha", "Beta"]  # ranked rows first, the unranked below them
    assert "2 models ranked over the 2 benchmarks" in page.inner_text("#common-sets")
    page.click("#hidden-models a")
    assert "Idle" in page.inner_text('table[data-table="overview"]')
    assert page.console.errors == []


@override_settings(ROOT_URLCONF="tests.browser.urls_boom")
def test_404_and_500_pages_carry_the_site_style(live_server, page):
    response = page.goto(live_server.url + "/no/such/page/")
    assert response.status == 404
    assert (
        page.locator("header.site nav a").count() >= 6
        and page.locator("#error-404 h1").inner_text() == "Page not found"
    )
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith("system-ui")
    response = page.goto(live_server.url + "/boom/")
    assert response.status == 500
    assert "went wrong" in page.inner_text("#error-500 h1")
    assert (
        page.evaluate("getComputedStyle(document.querySelector('header')).borderBottomStyle")
        == "solid"
    )


def test_api_documentation_page(live_server, page):
    page.goto(live_server.url + "/api/")  # a browser at the entry point gets the documentation
    assert page.locator("#api-docs h1").inner_text().startswith("Podium API")
    page.click('a[href="#post-api-jobs"]')
    section = page.locator("#post-api-jobs")
    assert "POST" in section.inner_text() and "Authorization: Bearer" in section.inner_text()
    page.click("#schema-JobSubmit summary")
    assert '"benchmarks"' in page.inner_text("#schema-JobSubmit pre")
    assert page.console.errors == []


def test_table_headers_stick_while_the_table_scrolls(live_server, page):
    job = f.job(name="big", total_items=60)
    bench = f.benchmark("hanabi/a", "hanabi")
    for i in range(50):
        f.run(f.model(f"m{i:02d}"), bench, None, job_obj=job, total_items=1)
    page.goto(live_server.url + reverse("leaderboard:job", args=[job.pk]))
    box = page.locator("#table-job-runs .scroll")
    before = page.evaluate(
        "document.querySelector('#table-job-runs th').getBoundingClientRect().top"
    )
    box.evaluate("el => el.scrollTop = 600")
    page.wait_for_function("document.querySelector('#table-job-runs .scroll').scrollTop > 0")
    wrapper_top = box.evaluate("el => el.getBoundingClientRect().top")
    header_top = page.evaluate(
        "document.querySelector('#table-job-runs th').getBoundingClientRect().top"
    )
    assert abs(header_top - wrapper_top) <= 1 and abs(header_top - before) <= 1
    first_row = page.evaluate(
        "document.querySelector('#table-job-runs tbody tr').getBoundingClientRect().top"
    )
    assert first_row < header_top  # the rows went up under the header


def test_main_pages_fit_a_phone(live_server, browser):
    site = populated_site()
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    phone = context.new_page()
    urls = [
        "/",
        reverse("leaderboard:hipho"),
        reverse("leaderboard:hanabi"),
        reverse("leaderboard:chess"),
        reverse("leaderboard:model", args=["alpha"]),
        reverse("leaderboard:benchmarks"),
        reverse("leaderboard:run", args=[site["runs"]["alpha-ipho"].pk]),
        reverse("leaderboard:item", args=[site["items"]["hipho"].pk]),
        reverse("leaderboard:queue"),
        reverse("leaderboard:job", args=[site["job"].pk]),
        "/api/docs",
    ]
    for url in urls:
        phone.goto(live_server.url + url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (url, width)
    phone.goto(live_server.url + "/")
    # a score and its SE stay on one line
    cell = phone.locator('table[data-table="overview"] td.num a').first
    assert cell.evaluate("el => el.getClientRects().length") == 1
    context.close()


def test_latex_is_typeset_and_a_script_payload_stays_text(live_server, page):
    m, b = f.model("m"), f.benchmark("hipho/ipho-2025", "hipho")
    run = f.run(m, b, f.hipho_metrics(20.0))
    reply = r"The energy is $E = \frac{1}{2} m v^2$ so $$v = \sqrt{2E/m}$$ <script>window.__xss=1</script> done"
    item = f.item(
        run,
        "T1",
        transcript=[
            {"role": "reply", "text": reply},
            {
                "role": "grading",
                "text": "answer 1: wrong by rule numeric (0/5 pt)",
                "correct": False,
            },
            {"role": "grading", "text": "answer 2: correct (5/5 pt)", "correct": True},
        ],
    )
    page.goto(live_server.url + reverse("leaderboard:item", args=[item.pk]))
    page.wait_for_selector('html[data-math="typeset"]')
    reply_box = page.locator(".transcript .role-reply")
    assert reply_box.locator("mjx-container svg").count() == 2  # inline and display maths
    assert "<script>window.__xss=1</script>" in reply_box.inner_text()  # shown as text
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator('.transcript [data-verdict="wrong"]').count() == 1
    assert page.locator('.transcript [data-verdict="right"]').count() == 1
    colours = page.evaluate("""[...document.querySelectorAll('.transcript [data-verdict] pre.text')]
        .map(p => getComputedStyle(p).backgroundColor)""")
    assert colours[0] != colours[1]
    assert page.console.errors == []


def test_a_long_llm_game_transcript_stays_short_on_a_phone(live_server, browser):
    m, b = f.model("m"), f.benchmark("hanabi/2p-watson", "hanabi")
    run = f.run(m, b, f.hanabi_metrics(10.0))
    transcript = []
    for turn in range(120):  # an LLM Hanabi game: a long prompt and a reply per turn
        transcript.append(
            {
                "role": "prompt",
                "text": f"Turn {turn}. " + "You see the other hands and the discard pile. " * 40,
            }
        )
        transcript.append({"role": "reply", "text": f"I will give a hint on turn {turn}.\n" * 12})
    item = f.item(run, "seed-1", transcript=transcript)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    phone = context.new_page()
    phone.goto(live_server.url + reverse("leaderboard:item", args=[item.pk]))
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height < 8000, height  # 240 entries, long ones collapsed, the middle turns folded away
    assert phone.locator("#transcript-middle > summary").inner_text().startswith("220 more entries")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
