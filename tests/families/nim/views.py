"""Nim's page (win rate per model and opponent) and its item viewer, on the platform's generic
family template: a new family needs no template of its own."""

from __future__ import annotations

from django.http import Http404

from leaderboard.family_pages import family_entries, model_cell
from leaderboard.page_cache import cached_page
from leaderboard.pages import paginate, pm, render_page, run_url
from leaderboard.tables import Cell, Column, Table
from leaderboard.views_items import item_for_viewer
from tests.families.nim.evaluator import game_view as nim_game


@cached_page
def index(request):
    page = paginate(request, list(family_entries("nim")))
    table = Table(
        "nim-results",
        "Win rate",
        [
            Column("model", "Model"),
            Column("opponent", "Opponent"),
            Column("score", "Win rate (%)", numeric=True),
            Column("games", "Games", numeric=True),
        ],
    )
    for e in page.object_list:
        table.add(
            model=model_cell(e.model),
            opponent=Cell(e.group),
            score=Cell(e.score, pm(e.score, e.score_se, 1), href=run_url(e.run_id)),
            games=Cell(e.summary.get("games")),
        )
    return render_page(
        request,
        "leaderboard/family.html",
        {
            "title": "Nim",
            "intro": "Games won against a built-in opponent, model moving first.",
            "page": page,
        },
        [table],
    )


def game_view(request, pk: int):
    item = item_for_viewer(pk)
    if item.run.benchmark.family != "nim":
        raise Http404("not a Nim game")
    try:
        data = nim_game(dict(item.details or {}))
    except ValueError as exc:
        raise Http404(str(exc)) from None
    table = Table(
        "nim-moves",
        f"Game from {data['start']}",
        [
            Column("n", "Move", numeric=True),
            Column("by", "By"),
            Column("move", "Move"),
            Column("heaps", "Heaps after"),
        ],
    )
    for n, m in enumerate(data["moves"], 1):
        table.add(
            n=Cell(n),
            by=Cell(m.get("by")),
            move=Cell(f"take {m.get('take')} from heap {m.get('heap')}"),
            heaps=Cell(str(m.get("heaps"))),
        )
    return render_page(
        request,
        "leaderboard/family.html",
        {"title": f"Nim game #{item.pk}", "intro": f"Winner: {data.get('winner') or '—'}."},
        [table],
    )
