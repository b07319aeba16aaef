"""Model text is untrusted: pages show it as text, never as markup."""

import pytest
from django.urls import reverse

from leaderboard.views_items import SHOWN_CHARS
from tests.leaderboard import factories as f
from tests.leaderboard.factories import XSS

pytestmark = pytest.mark.django_db
ESCAPED = "&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=2&quot;&gt;"


def test_transcript_escapes_replies(client, site):
    html = client.get(
        reverse("leaderboard:item", args=[site["items"]["hipho"].pk])
    ).content.decode()
    assert ESCAPED in html
    assert "<script>window.__xss" not in html and "<img src=x" not in html


def test_position_viewer_escapes_reasoning(client, site):
    html = client.get(
        reverse("leaderboard:position", args=[site["items"]["chess"].pk])
    ).content.decode()
    assert ESCAPED in html and "<script>window.__xss" not in html


def test_replay_data_is_json_escaped(client, site):
    html = client.get(
        reverse("leaderboard:replay", args=[site["items"]["hanabi"].pk])
    ).content.decode()
    assert "<script>window.__xss" not in html
    assert "\\u003Cscript\\u003E" in html  # json_script escapes < and >


def test_hostile_model_names_are_escaped_everywhere(client):
    m = f.model("evil", display_name=XSS, organisation=XSS)
    f.run(
        m,
        f.benchmark("hanabi/cross", "hanabi"),
        f.hanabi_metrics(10.0, mode="cross", partners=[XSS]),
    )
    f.run(m, f.benchmark("hipho/x", "hipho"), f.hipho_metrics(10.0))
    for url in (
        reverse("leaderboard:home"),
        reverse("leaderboard:hanabi"),
        reverse("leaderboard:hipho"),
        reverse("leaderboard:model", args=["evil"]),
    ):
        html = client.get(url).content.decode()
        assert "<script>window.__xss" not in html, url
        assert "<img src=x" not in html, url


def test_pages_forbid_inline_scripts(client, site):
    csp = client.get(reverse("leaderboard:home"))["Content-Security-Policy"]
    assert (
        "script-src 'self'" in csp
        and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    )


def test_long_replies_are_cut_with_a_link_to_the_full_plain_text(client, site):
    run = site["runs"]["beta-ipho"]
    long_reply = "x" * (SHOWN_CHARS + 500) + XSS
    it = f.item(run, "T2", transcript=[{"role": "reply", "text": long_reply}])
    html = client.get(reverse("leaderboard:item", args=[it.pk])).content.decode()
    assert f"first {SHOWN_CHARS} of {len(long_reply)} characters" in html
    full_url = reverse("leaderboard:item_text", args=[it.pk, 0])
    assert full_url in html and "window.__xss" not in html
    full = client.get(full_url)
    assert full["Content-Type"] == "text/plain; charset=utf-8"
    assert "sandbox" in full["Content-Security-Policy"]
    assert full.content.decode() == long_reply
    assert client.get(reverse("leaderboard:item_text", args=[it.pk, 5])).status_code == 404
