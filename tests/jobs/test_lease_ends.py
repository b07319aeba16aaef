"""What a worker's lease keeper reports as lost: only items that no longer carry its token.

An item the worker has just finished still sits in its keeper until the worker lets go of it
(the lease is held until the final write has committed). A renewal round in that gap used to
report the item "lost while this worker held it", which bench/faults.py then counted as a live
takeover (seen: item 537 of a 1,209-item run, reported 42 ms before its own worker's task ended
'done').
"""

from __future__ import annotations

import time

import pytest
from django.db import connection

from catalog.models import ModelEntry
from evaluators.base import ItemOutcome
from jobs import services
from jobs.leases import LeaseKeeper
from jobs.models import ItemResult

pytestmark = pytest.mark.django_db(transaction=True)
ROUNDS_S = 2.5  # a 2 s lease is renewed every 0.67 s: several rounds


@pytest.fixture
def keeper(settings):
    settings.PODIUM_ITEM_LEASE_SECONDS = 2
    k = LeaseKeeper()
    yield k
    with k._lock:  # nothing left to renew: the renewer is not restarted when it exits
        k._leases.clear()
    if k._renewer is not None:  # the renewer exits when its orders pipe closes
        k._renewer.stdin.close()
        k._renewer.wait(10)
    k._wake.set()


def _claimed(demo_exam, n: int) -> list[tuple[int, str]]:
    reference = ModelEntry.objects.get(litellm_model="builtin/reference")
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)
    ids = list(job.runs.get().items.values_list("pk", flat=True)[:n])
    claims = [(i, services.item_claim(item_id=i)) for i in ids]
    assert all(token for _, token in claims)
    return claims  # type: ignore[return-value]


def test_an_item_the_worker_finished_is_not_reported_lost(keeper, demo_exam):
    (done_id, done_token), (failed_id, failed_token) = _claimed(demo_exam, 2)
    done = keeper.hold(done_id, done_token)
    failed = keeper.hold(failed_id, failed_token)
    assert services.item_finish(item_id=done_id, token=done_token, outcome=ItemOutcome(score=1))
    assert services.item_fail(item_id=failed_id, token=failed_token, reason="its own failure")
    time.sleep(ROUNDS_S)  # still held: the worker has not let go yet
    assert (done.lost, failed.lost) == (False, False)
    if connection.vendor == "postgresql":
        assert keeper._renewer is not None and keeper._renewer.poll() is None


def test_an_item_taken_away_is_reported_lost(keeper, demo_exam):
    (taken_id, taken_token), (reaped_id, reaped_token), (kept_id, kept_token) = _claimed(
        demo_exam, 3
    )
    taken = keeper.hold(taken_id, taken_token)
    reaped = keeper.hold(reaped_id, reaped_token)
    kept = keeper.hold(kept_id, kept_token)
    # another worker's claim after a requeue: a new token
    ItemResult.objects.filter(pk=taken_id).update(claim_token="another-worker")
    # the reaper fails an item whose lease it found expired (no token given)
    assert services.item_fail(item_id=reaped_id, token=None, reason="worker lost 3 times")
    deadline = time.monotonic() + 10
    while not (taken.lost and reaped.lost) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert (taken.lost, reaped.lost, kept.lost) == (True, True, False)
    assert ItemResult.objects.get(pk=reaped_id).claim_token == ""
