"""Chess end to end: a real Celery worker, the fake OpenAI-compatible server as the model (real
HTTP through litellm), real Stockfish and Redis. The fake answers the demo positions with legal,
illegal-then-legal and unparseable moves and with reasoning holding true and false claims; the
stored per-move records and the run aggregates must match what those answers imply."""

from __future__ import annotations

import re

import chess
import pytest

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmarks_ensure, builtin_models_ensure
from games.chess.positions import load_position_set
from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fixtures.services import wait_for
from tests.games.chess.conftest import _stockfish_found
from tests.requirements import require

pytestmark = pytest.mark.django_db(transaction=True)
DEMO = load_position_set("data/chess_demo/positions.json")
BY_FEN = {p.fen: (i, p) for i, p in enumerate(DEMO.positions)}
PIECE = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}


def true_claim(board):
    sq = next(
        s
        for s in chess.SQUARES
        if board.piece_at(s)
        and board.piece_at(s).color == board.turn
        and board.piece_at(s).piece_type != chess.PAWN
    )
    return f"the {PIECE[board.piece_at(sq).piece_type]} on {chess.square_name(sq)}"


def false_claim(board):
    sq = next(s for s in chess.SQUARES if board.piece_at(s) is None)
    return f"the queen on {chess.square_name(sq)}"


def illegal_uci(board):
    own = [s for s in chess.SQUARES if board.piece_at(s) and board.piece_at(s).color == board.turn]
    return next(
        chess.square_name(a) + chess.square_name(b)
        for a in own
        for b in chess.SQUARES
        if a != b and chess.Move(a, b) not in board.legal_moves
    )


def worst_move(p):
    return min(p.move_values, key=lambda m: (p.move_values[m], m))


def behaviour(i):
    return ("best", "illegal_then_best", "unparseable", "worst")[i % 4]


def chess_rule(request):
    messages = request["messages"]
    fen = re.search(r"Position \(FEN\): (.+)", messages[1]["content"]).group(1).strip()
    board = chess.Board(fen)
    if fen not in BY_FEN:  # a game position: any legal move
        return f"Final answer: {min(m.uci() for m in board.legal_moves)}"
    i, p = BY_FEN[fen]
    best_san = board.san(chess.Move.from_uci(p.best_move))
    kind = behaviour(i)
    if kind == "best":
        return f"I look at {true_claim(board)}.\nFinal answer: {best_san}"
    if kind == "illegal_then_best":
        if len(messages) == 2:
            return f"Note {false_claim(board)}.\nFinal answer: {illegal_uci(board)}"
        return f"Final answer: {p.best_move}"
    if kind == "unparseable":
        return "I am not sure what to play here."
    worst = board.san(chess.Move.from_uci(worst_move(p)))
    return f"Both {true_claim(board)} and {false_claim(board)} matter.\nFinal answer: {worst}"


def test_best_move_through_celery_records_and_aggregates(celery_worker, fake_llm):
    require(_stockfish_found(), "Stockfish binary")
    fake_llm.rule = chess_rule
    cfg = fake_llm.model_config(slug="fake-chess", model="openai/fake-chess")
    model = ModelEntry.objects.create(
        slug="fake-chess",
        display_name="Fake chess",
        litellm_model=cfg.model,
        api_base=cfg.api_base,
        api_key_env=cfg.api_key_env,
        params={"temperature": 0},
    )
    builtin_models_ensure()
    stockfish = ModelEntry.objects.get(litellm_model="builtin/stockfish")
    bench = next(b for b in benchmarks_ensure("chess") if b.slug == "chess/best-move-demo")
    games = Benchmark.objects.create(
        slug="chess/games-e2e",
        name="games e2e",
        family="chess",
        config={"task": "games", "opponents": ["random"], "games_per_opponent": 1, "max_moves": 3},
    )
    celery_worker(concurrency=2)
    job = services.job_submit(models=[model, stockfish], benchmarks=[bench], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=300,
        what="the chess job",
    )
    job.refresh_from_db()
    n = len(DEMO.positions)
    assert job.failed_items == 0 and job.done_items == job.total_items == 2 * n

    run = job.runs.get(model=model)
    counts = {k: 0 for k in ("best", "illegal_then_best", "unparseable", "worst")}
    for item in run.items.all():
        assert item.state == ItemResult.State.DONE
        i, p = next((i, p) for i, p in enumerate(DEMO.positions) if p.id == item.item_key)
        kind = behaviour(i)
        counts[kind] += 1
        [rec] = item.details["moves"]
        if kind in ("best", "illegal_then_best"):
            assert (
                rec["move"] == p.best_move
                and rec["analysis"]["move_class"] == "best"
                and item.score == 100
            )
            assert rec["legal_final"] and rec["legal_first_try"] == (kind == "best")
            assert (
                rec["illegal_attempts"] == (kind == "illegal_then_best")
                and rec["attempts"] == 1 + rec["illegal_attempts"]
            )
            assert (rec["claims_total"], rec["claims_false"]) == (
                (1, 0) if kind == "best" else (1, 1)
            )
        elif kind == "unparseable":
            assert rec["move"] is None and rec["analysis"] is None and item.score == 0
            assert (rec["parse_failures"], rec["attempts"], rec["legal_final"]) == (4, 4, False)
        else:
            a = rec["analysis"]
            assert rec["move"] == worst_move(p) and rec["legal_first_try"]
            assert (rec["claims_total"], rec["claims_false"]) == (2, 1)
            assert a["cp_best"] == p.cp and a["win_after"] <= a["win_before"]
            assert item.score == (100 if a["move_class"] == "best" else 0)
        roles = [t["role"] for t in item.transcript]
        assert roles[:2] == ["prompt", "reply"] and roles[-1] == "grading"

    m = run.metrics
    worst_best = sum(
        1
        for it in run.items.all()
        if behaviour(int(it.item_key.rsplit("-", 1)[1]) - 1) == "worst" and it.score == 100
    )
    expected_score = 100 * (counts["best"] + counts["illegal_then_best"] + worst_best) / n
    assert (
        m["task"] == "best_move"
        and m["score"] == pytest.approx(expected_score)
        and run.score == pytest.approx(expected_score)
    )
    assert m["legal_first_try"] == pytest.approx((counts["best"] + counts["worst"]) / n)
    assert m["legal_final"] == pytest.approx((n - counts["unparseable"]) / n)
    assert (
        m["parse_failures"] == 4 * counts["unparseable"]
        and m["illegal_attempts"] == counts["illegal_then_best"]
    )
    true_claims = counts["best"] + counts["worst"]
    false_claims = counts["illegal_then_best"] + counts["worst"]
    assert m["hallucination_rate"] == pytest.approx(false_claims / (true_claims + false_claims))
    # every decision has a class; the ones that never became legal are their own bucket
    assert (
        sum(m["move_classes"].values()) == n
        and m["move_classes"]["never_legal"] == counts["unparseable"]
    )
    assert m["move_classes"]["best"] >= counts["best"] + counts["illegal_then_best"]
    assert m["n_items"] == n and m["n_failed"] == 0 and m["score_se"] is not None
    calls = LLMCall.objects.filter(run=run, purpose="model").count()
    assert (
        calls
        == counts["best"]
        + 2 * counts["illegal_then_best"]
        + 4 * counts["unparseable"]
        + counts["worst"]
    )

    sf = job.runs.get(model=stockfish)
    assert (
        sf.metrics["score"] == 100.0
        and sf.metrics["acpl"] == 0
        and LLMCall.objects.filter(run=sf).count() == 0
    )

    # a short game against the random builtin: one item, checkpointed move by move
    job2 = services.job_submit(models=[model], benchmarks=[games], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job2.pk).status == Job.Status.DONE,
        timeout=300,
        what="the game job",
    )
    [item] = ItemResult.objects.filter(run__job=job2)
    assert item.state == ItemResult.State.DONE, item.error
    assert item.details["resumed_at_ply"] is None
    assert (
        item.details["reason"] in ("move_limit", "checkmate", "stalemate")
        and item.details["plies"] <= 6
    )
    assert [r["ply"] for r in item.details["moves"]] == list(range(1, item.details["plies"] + 1, 2))
    gm = job2.runs.get().metrics
    assert (
        gm["task"] == "games" and gm["games"] == 1 and gm["wins"] + gm["draws"] + gm["losses"] == 1
    )
    # the random mover is rated only by the measured ladder (never by a stated number)
    [pairing] = gm["pairings"]
    ladder_random = next(p for p in gm["ladder"]["players"] if p["name"] == "random")
    assert pairing["opponent"] == "random" and pairing["rating"] == ladder_random["rating"]
    assert gm["legal_first_try"] == 1.0 and (gm["elo"] is None) == (ladder_random["rating"] is None)


def test_a_game_resumes_from_its_checkpoint_after_the_worker_is_killed(celery_worker, fake_llm):
    require(_stockfish_found(), "Stockfish binary")
    fake_llm.rule = chess_rule
    fake_llm.configure(latency=0.4)
    cfg = fake_llm.model_config(slug="fake-chess", model="openai/fake-chess")
    model = ModelEntry.objects.create(
        slug="fake-chess",
        display_name="Fake chess",
        litellm_model=cfg.model,
        api_base=cfg.api_base,
        api_key_env=cfg.api_key_env,
        params={"temperature": 0},
    )
    games = Benchmark.objects.create(
        slug="chess/games-crash",
        name="games crash",
        family="chess",
        config={"task": "games", "opponents": ["random"], "games_per_opponent": 1, "max_moves": 12},
    )
    first = celery_worker(concurrency=1, lease=3)
    job = services.job_submit(models=[model], benchmarks=[games], samples=1)
    seen = wait_for(
        lambda: (
            (ItemResult.objects.filter(run__job=job).first() or None)
            and len((ItemResult.objects.get(run__job=job).checkpoint or {}).get("moves", [])) >= 4
            and ItemResult.objects.get(run__job=job).checkpoint
        ),
        timeout=120,
        what="a checkpoint with four moves",
    )
    first.kill()
    at_kill = ItemResult.objects.get(run__job=job).checkpoint["moves"]
    assert len(at_kill) >= len(seen["moves"])
    celery_worker(concurrency=1, lease=3)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=180,
        what="the resumed game",
    )
    item = ItemResult.objects.get(run__job=job)
    assert item.state == ItemResult.State.DONE, item.error
    d = item.details
    assert d["resumed_at_ply"] == len(at_kill) and d["game_moves"][: len(at_kill)] == at_kill
    assert item.attempts >= 2
