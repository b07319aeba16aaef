"""Rankings compare like with like: a common set per family, coverage for the rest, the sanity
check never ranked; the representative run is the most complete, then the newest; cache use shown."""

import re

import pytest
from django.urls import reverse

from jobs.models import LLMCall
from leaderboard.common_set import Point, common_keys, rank_family
from leaderboard.models import LeaderboardEntry
from leaderboard.services import leaderboard_refresh_run, run_cache_use
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_it_takes_the_keys_at_least_half_of_the_models_ran():
    ran = {1: {"a", "b", "c"}, 2: {"a", "b"}, 3: {"a", "b", "c"}, 4: {"c"}}
    assert common_keys(ran) == ["a", "b", "c"]  # a, b: 3 of 4; c: 3 of 4
    assert common_keys({1: {"a"}, 2: {"b"}}) == []  # no benchmark in common: nobody is ranked


def test_it_drops_the_least_run_key_until_two_models_ran_the_whole_set():
    ran = {1: {"a", "b"}, 2: {"a", "c"}, 3: {"b", "c"}, 4: {"a", "b", "c", "d"}}
    common = common_keys(ran)  # a, b, c each run by 3 of 4; only model 4 ran all three
    assert len(common) == 2 and sum(1 for keys in ran.values() if keys.issuperset(common)) >= 2


def test_it_ranks_only_models_that_ran_the_whole_common_set_and_never_the_sanity_check():
    pts = [
        Point(1, "a", 60, 2),
        Point(1, "b", 40, 2),
        Point(2, "a", 50, 2),
        Point(2, "b", 50, 2),
        Point(3, "b", 99, 1),  # ran one of two: a high score on the easy exam is not rank 1
        Point(9, "a", 100, 0),
        Point(9, "b", 100, 0),
    ]  # the sanity check
    r = rank_family(pts, sanity={9})
    assert r.common == ["a", "b"]
    assert set(r.scores) == {1, 2} and r.scores[1][0] == 50 and r.coverage[3] == 1
    assert not r.ranked(3) and not r.ranked(9) and 9 in r.excluded
    assert r.own[3][0] == 99


def _overview_rows(html: str) -> dict[str, str]:
    body = html.split('data-table="overview"', 1)[1].split("</table>", 1)[0]
    return dict(
        re.findall(
            r'<tr[^>]*>.*?href="/models/([a-z0-9-]+)/".*?(<td class="num".*?)</tr>', body, re.S
        )
    )


def test_the_overview_ranks_over_the_common_set_and_hides_models_that_never_ran(client):
    ipho, eupho = f.benchmark("hipho/ipho-2025", "hipho"), f.benchmark("hipho/eupho-2025", "hipho")
    a, b, c = f.model("alpha"), f.model("beta"), f.model("lone")
    ref = f.model("reference", litellm_model="builtin/reference")
    f.model("idle")
    for m, s1, s2 in ((a, 20, 20), (b, 15, 15), (ref, 30, 30)):
        f.run(m, ipho, f.hipho_metrics(s1, exam_id="ipho-2025"))
        f.run(m, eupho, f.hipho_metrics(s2, exam_id="eupho-2025"))
    f.run(c, eupho, f.hipho_metrics(29, exam_id="eupho-2025"))
    html = client.get(reverse("leaderboard:home")).content.decode()
    rows = _overview_rows(html)
    assert "idle" not in rows and "1 model with no results yet is hidden" in html
    assert "rank 1 · 2/2 common" in rows["alpha"] and "rank 2 · 2/2 common" in rows["beta"]
    assert "not ranked · ran 1 of 2 common" in rows["lone"]
    assert "sanity check, not ranked" in rows["reference"] and "rank 1" not in rows["reference"]
    assert "2 models ranked over the 2 benchmarks" in html and "IPHO-2025" in html
    assert "idle" in _overview_rows(
        client.get(reverse("leaderboard:home"), {"all": "1"}).content.decode()
    )


def test_the_most_complete_run_represents_a_pair_and_cache_use_is_shown(client):
    bench, m = f.benchmark("hanabi/2p", "hanabi"), f.model("m1")
    big = f.run(
        m, bench, {**f.hanabi_metrics(12.0, 0.5), "n_items": 48}, total_items=48, done_items=48
    )
    call = LLMCall.objects.create(
        run=big, purpose="model", request_hash="h1", model="x", cache_hit=False
    )
    small = f.run(
        m, bench, {**f.hanabi_metrics(18.0, 0.9), "n_items": 24}, total_items=24, done_items=24
    )
    LLMCall.objects.create(
        run=small, purpose="model", request_hash=call.request_hash, model="x", cache_hit=True
    )
    entry = LeaderboardEntry.objects.get(model=m, benchmark=bench)
    assert entry.run_id == big.pk  # the newer 24-item resume did not replace the 48-item run
    html = client.get(reverse("leaderboard:model", args=["m1"])).content.decode()
    assert "1 fresh" in html and "on the board" in html and "history" in html
    # the resume's reply was first paid for by the big run's job
    assert run_cache_use(small) == {"calls": 1, "hits": 1, "other_jobs": 1}
    run_page = client.get(reverse("leaderboard:run", args=[small.pk])).content.decode()
    assert (
        "1 of 1 model calls answered from the response cache, 1 of them first paid by another job"
        in run_page
    )
    big.delete()
    leaderboard_refresh_run(small.pk)
    entry = LeaderboardEntry.objects.get(model=m, benchmark=bench)
    assert entry.run_id == small.pk and entry.summary["cache"] == {
        "calls": 1,
        "hits": 1,
        "other_jobs": 0,
    }
