"""The Hanabi replay frames and the chess board are rebuilt from the stored item details."""

import itertools

import pytest
from django.urls import reverse

from evaluators.chess.board import BadPositionError, board_squares
from evaluators.hanabi.replay import ReplayError, game_frames
from tests.leaderboard import factories as f


def test_frames_replay_the_game_with_what_each_seat_sees():
    details = f.hanabi_game_details(turns=6)
    data = game_frames(details)
    frames = data["frames"]
    assert len(frames) == 7 and frames[-1]["move"] is None
    first = frames[0]
    assert (
        first["turn"] == 0
        and first["info_tokens"] == 8
        and first["lives"] == 3
        and first["deck"] == 40
    )
    assert [len(h["cards"]) for h in first["hands"]] == [5, 5]
    assert all(k == "XX" for h in first["hands"] for k in h["knows"])  # nobody knows anything yet
    assert (
        frames[3]["move"]["fallback"]
        and frames[3]["move"]["fallback_reason"] == "unparseable reply"
    )
    assert (
        frames[0]["move"]["replies"] == ["I play card 0 (turn 0)"]
        and frames[0]["move"]["agent"] == "m-a"
    )
    # a hint spends a token and shows up in the knowledge of the hinted seat afterwards
    for before, after in itertools.pairwise(frames):
        if before["move"]["text"].startswith("Reveal"):
            assert after["info_tokens"] == before["info_tokens"] - 1
            target = 1 - before["move"]["seat"]
            assert any(k != "XX" for k in after["hands"][target]["knows"])


def test_unreplayable_details_raise_a_clear_error():
    with pytest.raises(ReplayError, match="no list of moves"):
        game_frames({"seed": 1, "players": 2})
    with pytest.raises(ReplayError, match="move 0 'Play 9'"):
        game_frames({"seed": 1, "players": 2, "moves": ["Play 9"]})


@pytest.mark.django_db
def test_replay_page_reports_a_broken_game_instead_of_failing(client, site):
    it = f.item(site["runs"]["beta-hanabi"], "broken", details={"moves": "nope"})
    html = client.get(reverse("leaderboard:replay", args=[it.pk])).content.decode()
    assert "cannot be replayed" in html
    assert (
        client.get(reverse("leaderboard:replay", args=[site["items"]["chess"].pk])).status_code
        == 404
    )


def test_board_marks_model_and_engine_moves():
    squares = board_squares(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        model_move="e2e4",
        best_move="Nf3",
    )
    by_name = {s.name: s for s in squares}
    assert len(squares) == 64 and squares[0].name == "a8" and squares[-1].name == "h1"
    assert by_name["e1"].glyph == "♔" and by_name["e8"].glyph == "♚"
    assert by_name["e2"].marks == ("model-from",) and by_name["e4"].marks == ("model-to",)
    assert by_name["g1"].marks == ("best-from",) and by_name["f3"].marks == ("best-to",)
    flipped = board_squares("8/8/8/8/8/8/8/K6k b - - 0 1", flip=True)
    assert flipped[0].name == "h1"
    with pytest.raises(BadPositionError, match="cannot read FEN"):
        board_squares("not a fen")


@pytest.mark.django_db
def test_position_viewer_steps_through_game_positions(client, site):
    run = site["runs"]["alpha-games"]
    it = f.item(
        run,
        "game-1",
        details={
            "moves": [
                {
                    "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    "model_move": "e2e4",
                    "best_move": "d2d4",
                },
                {
                    "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                    "model_move": "e7e5",
                    "best_move": "c7c5",
                },
            ]
        },
    )
    first = client.get(reverse("leaderboard:position", args=[it.pk])).content.decode()
    assert "position 1 of 2" in first and "e2e4" in first and 'href="?i=1"' in first
    second = client.get(reverse("leaderboard:position", args=[it.pk]), {"i": 1}).content.decode()
    assert "position 2 of 2" in second and "c7c5" in second and "black" in second


@pytest.mark.django_db
def test_position_viewer_reads_evaluators_chess_move_records(client, site):
    """The shape evaluators.chess.tasks.move_record stores: engine verdict under "analysis"."""
    rec = {
        "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "side": "white",
        "move": "a2a3",
        "san": "a3",
        "builtin": False,
        "attempts": 1,
        "legal_first_try": True,
        "claims_total": 2,
        "claims_false": 1,
        "claims": [
            {"kind": "move", "text": "e4 is legal", "true": True, "in_variation": False},
            {"kind": "piece", "text": "the knight on d5", "true": False, "in_variation": False},
        ],
        "analysis": {
            "move": "a2a3",
            "best_move": "e2e4",
            "best_san": "e4",
            "move_class": "inaccuracy",
            "cp_loss": 35,
            "accuracy": 80.5,
            "percentile": None,
        },
    }
    it = f.item(
        site["runs"]["beta-best"],
        "pos-9",
        details={"task": "best_move", "moves": [rec]},
        transcript=[
            {"role": "prompt", "text": "Find the best move"},
            {"role": "reply", "text": "a3 is solid"},
        ],
    )
    html = client.get(reverse("leaderboard:position", args=[it.pk])).content.decode()
    assert "e2e4" in html and "<dt>Move class</dt><dd>inaccuracy</dd>" in html
    assert (
        "<dt>Legal on the first try</dt><dd>yes</dd>" in html
        and "None" not in html.split("<main>")[1]
    )
    assert "a3 is solid" in html and "1 false of 2" in html
    # the false claim is named, the true one is not listed
    assert (
        "<q>the knight on d5</q> — false (piece placement" in html
        and "<q>e4 is legal</q>" not in html
    )
    assert html.count("best-from") >= 1 and html.count("model-to") >= 1
