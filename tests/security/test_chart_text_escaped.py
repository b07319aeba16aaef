"""A display name holding markup reaches the charts as text: plotly renders <a href>, so the
name must arrive escaped (&lt;a …), while our own <br> labels still break lines."""

from __future__ import annotations

import json
import re

import plotly.graph_objects as go
import pytest
from django.test import Client

from catalog.models import ModelEntry
from leaderboard.pages import chart

pytestmark = pytest.mark.django_db

PAYLOAD = '<a href="https://evil.example/steal">click</a>'


def _chart_strings(html: str) -> str:
    blocks = re.findall(
        r'<script id="[^"]+-data" type="application/json">(.*?)</script>', html, re.S
    )
    assert blocks, "no chart on the page"
    return json.dumps([json.loads(b) for b in blocks])


def test_a_display_name_with_a_link_is_inert_in_the_hipho_chart():
    from tests.leaderboard.factories import populated_site

    populated_site()
    ModelEntry.objects.filter(slug="alpha").update(display_name=PAYLOAD)
    html = Client().get("/hipho/").content.decode()
    strings = _chart_strings(html)
    assert "<a href" not in strings and "evil.example" in strings
    assert "&lt;a href" in strings


def test_our_own_line_breaks_survive_and_everything_else_is_escaped():
    fig = go.Figure(
        go.Heatmap(
            z=[[1]],
            x=[PAYLOAD],
            y=["<b onclick=x>y</b>"],
            text=[["1.0<br>± 0.1"]],
            hovertemplate="%{y}<extra></extra>",
        )
    )
    data = json.dumps(chart(fig, "t")["data"])
    assert "<a " not in data and "<b onclick" not in data
    assert "1.0<br>\\u00b1 0.1" in data or "1.0<br>± 0.1" in data
    assert "<extra></extra>" in data
