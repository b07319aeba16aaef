"""The chess viewer looks like chess: 8 square rows of equal height (empty ranks too), coordinates,
arrows for the model's and the engine's move, the side to move; a game has its move list, PGN
(shown and downloadable) and a Win% graph per ply."""

import chess
import chess.pgn
import pytest
from django.urls import reverse

from tests.leaderboard import factories as f

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]


def _game_details() -> dict:
    board, records = chess.Board(), []
    wins = [
        (55.0, 54.0),
        (53.0, 56.0),
        (57.0, 51.0),
    ]  # the model's (White's) Win% before / after its moves
    for ply, uci in enumerate(GAME, start=1):
        if ply % 2 == 1:
            before, after = wins[ply // 2]
            records.append(
                {
                    "fen": board.fen(),
                    "side": "white",
                    "move": uci,
                    "san": board.san(chess.Move.from_uci(uci)),
                    "builtin": False,
                    "ply": ply,
                    "by": "model",
                    "attempts": 1,
                    "legal_first_try": True,
                    "claims_total": 1,
                    "claims_false": 1,
                    "claims": [
                        {
                            "kind": "check",
                            "text": "this gives check",
                            "true": False,
                            "in_variation": False,
                        }
                    ],
                    "analysis": {
                        "best_move": "d2d4",
                        "best_san": "d4",
                        "win_before": before,
                        "win_after": after,
                        "move_class": "good",
                        "accuracy": 90.0,
                        "cp_loss": 12,
                    },
                }
            )
        board.push_uci(uci)
    return {
        "task": "games",
        "opponent": "stockfish-elo-1350",
        "opponent_elo": 1350,
        "model_color": "white",
        "result": "*",
        "reason": "max_moves",
        "points": 0.5,
        "plies": len(GAME),
        "moves": records,
        "opponent_moves": [],
        "game_moves": GAME,
        "pgn": str(chess.pgn.Game.from_board(board)),
    }


def test_board_geometry_move_list_pgn_and_eval_graph(live_server, page):
    m, b = f.model("m"), f.benchmark("chess/games", "chess")
    run = f.run(m, b, f.chess_metrics(1500.0, 80.0, task="games"))
    item = f.item(run, "g-1", details=_game_details())
    page.goto(live_server.url + reverse("leaderboard:position", args=[item.pk]) + "?i=1")
    rows = page.evaluate("""() => {
        const sq = [...document.querySelectorAll('#board .sq')].map(s => s.getBoundingClientRect());
        return sq.map(r => [Math.round(r.top), Math.round(r.height), Math.round(r.width)]);
    }""")
    assert len(rows) == 64
    heights = {h for _, h, _ in rows}
    assert max(heights) - min(heights) <= 1  # empty ranks are as tall as occupied ones
    assert all(abs(h - w) <= 1 for _, h, w in rows)  # squares are square
    tops = sorted({t for t, _, _ in rows})
    assert len(tops) == 8
    # coordinates: a-h along the bottom, 1-8 up the side
    assert page.locator("#board .coord.file").all_text_contents() == list("abcdefgh")
    assert page.locator("#board .coord.rank").all_text_contents() == [
        str(r) for r in range(8, 0, -1)
    ]
    assert (
        page.locator("svg.arrows line.arrow.model").count() == 1
        and page.locator("svg.arrows line.arrow.best").count() == 1
    )
    assert page.inner_text("#to-move") == "White to move"
    assert page.locator("#board .last-move").count() == 2  # ...e5 led to this position
    assert "this gives check" in page.inner_text(".false-claims")
    # the game: move list, PGN, eval graph
    assert page.locator("#move-list li").count() == 3 and "Nf3" in page.inner_text("#move-list")
    assert "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6" in page.inner_text("#pgn")
    page.wait_for_selector('#chess-eval-graph[data-drawn="1"]')
    points = page.evaluate("document.getElementById('chess-eval-graph').data[0].x")
    assert points == [0, 1, 2, 3, 4, 5]  # a Win% for every ply from the analysed model moves
    with page.expect_download() as download:
        page.click("#pgn-download")
    assert download.value.suggested_filename == f"game-{item.pk}.pgn"
    assert page.console.errors == []
