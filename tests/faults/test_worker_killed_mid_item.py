"""SIGKILL a worker (parent and pool) while it is inside HiPhO items, a Hanabi game and a chess
game at once; a new worker completes the job. Every item exactly once, the games continue from
their checkpoints, and no call whose reply had been received is paid for again."""

from __future__ import annotations

import time

import pytest
from django.db.models import Count

from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule, chess_rule, hanabi_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

# Replies are slow until the kill (so the kill lands mid-item), fast afterwards (to save time).
LATENCY = {"game": 0.4, "hipho": 1.5}


def family_rule(request: dict):
    text = " ".join(str(m.get("content")) for m in request["messages"])
    if "Position (FEN)" in text:
        return Reply(text=chess_rule(request), latency=LATENCY["game"])
    if "MOVE: <number>" in text:
        return Reply(text=hanabi_rule(request), latency=LATENCY["game"])
    return Reply(text=boxed_rule(request), latency=LATENCY["hipho"])


def _checkpoint_moves(run, field: str) -> int:
    item = run.items.get()
    return len((item.checkpoint or {}).get(field) or [])


@pytest.fixture(autouse=True)
def _restore_latency():
    saved = dict(LATENCY)
    yield
    LATENCY.update(saved)


def test_it_finishes_every_family_after_a_worker_is_killed_mid_item(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam, hanabi_game, chess_game
):
    log = paid_rule(family_rule)
    first = celery_worker(concurrency=4, lease=3)
    # runs are dispatched in creation order: the two games start first, HiPhO takes the other slots
    job = services.job_submit(
        models=[fake_model], benchmarks=[hanabi_game, chess_game, hipho_exam], samples=1
    )
    hanabi = job.runs.get(benchmark=hanabi_game)
    chess_run = job.runs.get(benchmark=chess_game)
    hipho = job.runs.get(benchmark=hipho_exam)

    def mid_everything():
        hipho.refresh_from_db()
        return (
            _checkpoint_moves(hanabi, "moves") >= 4
            and _checkpoint_moves(chess_run, "moves") >= 4
            and hipho.done_items >= 1
        )

    wait_for(mid_everything, timeout=120, what="both games under way and a HiPhO item done")
    first.kill()
    kill_time = time.time()
    slow = dict(LATENCY)
    LATENCY.update(game=0.02, hipho=0.02)
    before = {
        r.pk: (_checkpoint_moves(r, "moves") if r != hipho else None) for r in (hanabi, chess_run)
    }
    assert ItemResult.objects.get(run=hanabi).state == ItemResult.State.RUNNING
    assert ItemResult.objects.get(run=chess_run).state == ItemResult.State.RUNNING
    hipho.refresh_from_db()
    assert hipho.done_items < hipho.total_items, "HiPhO finished before the kill"
    done_before = dict(hipho.items.filter(state="done").values_list("pk", "finished_at"))

    celery_worker(concurrency=4, lease=3)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=240,
        what="the job to finish on the second worker",
    )

    job.refresh_from_db()
    assert job.failed_items == 0 and job.done_items == job.total_items == 9
    assert ItemResult.objects.filter(run__job=job).count() == 9
    assert not (
        ItemResult.objects.filter(run__job=job)
        .values("run", "item_key", "sample_index")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert not ItemResult.objects.filter(run__job=job).exclude(state="done").exists()
    # items finished before the kill were left alone
    assert (
        dict(hipho.items.filter(pk__in=done_before).values_list("pk", "finished_at")) == done_before
    )

    # the games continued from their checkpoints instead of starting over
    hanabi_item = hanabi.items.get()
    assert hanabi_item.attempts >= 2
    assert any(
        t.get("role") == "note" and "resumed after turn" in t.get("text", "")
        for t in hanabi_item.transcript
    )
    chess_item = chess_run.items.get()
    assert chess_item.attempts >= 2
    assert chess_item.details["resumed_at_ply"] >= before[chess_run.pk]
    for run in (hanabi, chess_run):
        run.refresh_from_db()
        assert run.status == "done" and run.aggregated_at is not None

    # billing: a reply received before the kill is never bought again; only the calls in flight
    # at the kill (at most one per pool process) may have been sent twice
    assert log.repaid_after_delivery(kill_time=kill_time, latency=slow["hipho"]) == []
    assert sum(n - 1 for n in log.paid_twice().values()) <= 4
    paid_rows = (
        LLMCall.objects.filter(run__job=job, cache_hit=False, error_class="")
        .values("request_hash")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert not paid_rows
    assert LLMCall.objects.filter(run__job=job, cache_hit=False, error_class="").count() <= log.paid
