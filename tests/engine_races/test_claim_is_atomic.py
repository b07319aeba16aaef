"""Two claimers of one item on PostgreSQL: the first holds its transaction (and the row lock)
open in another process; the second claim waits for it and must then lose."""

from __future__ import annotations

import threading
import time

from django.db import connection

from catalog.models import Benchmark, ModelEntry
from jobs import services
from jobs.models import ItemResult, Job, Run
from tests.engine_races.conftest import django_process

FIRST_CLAIMER = """
from django.db import transaction
from jobs.services import item_claim
for line in sys.stdin:
    item_id = int(line)
    with transaction.atomic():
        print(item_claim(item_id=item_id), flush=True)
        sys.stdin.readline()          # hold the commit open until told
    print("committed", flush=True)
"""


def _items(n: int) -> list[int]:
    model = ModelEntry.objects.get(litellm_model="builtin/reference")
    bench = Benchmark.objects.filter(family="hipho").order_by("slug").first()
    job = Job.objects.create(name="race", total_items=n)
    run = Run.objects.create(job=job, model=model, benchmark=bench, total_items=n)
    return [ItemResult.objects.create(run=run, item_key=f"k{i}").pk for i in range(n)]


def test_a_second_claim_waiting_on_an_open_first_claim_loses(postgres, catalog):
    items = _items(5)
    first = django_process(FIRST_CLAIMER)
    try:
        for item_id in items:
            first.stdin.write(f"{item_id}\n")
            token = first.stdout.readline().strip()
            assert token and token != "None", first.stderr.read()
            result: dict[str, object] = {}

            def second_claim(item_id=item_id, result=result):
                try:
                    result["token"] = services.item_claim(item_id=item_id)
                finally:
                    connection.close()

            thread = threading.Thread(target=second_claim)
            thread.start()
            time.sleep(0.5)  # the second claim is now blocked on the first one's row lock
            assert thread.is_alive(), "the second claim did not wait for the first one's lock"
            first.stdin.write("commit\n")
            assert first.stdout.readline().strip() == "committed"
            thread.join(timeout=30)
            assert result["token"] is None, "both claimers won the same item"
            item = ItemResult.objects.get(pk=item_id)
            assert (item.state, item.claim_token, item.attempts) == ("running", token, 1)
    finally:
        first.stdin.close()
        first.wait(timeout=30)


def test_a_cancelled_job_is_not_claimed(postgres, catalog):
    (item_id,) = _items(1)
    Job.objects.update(status=Job.Status.CANCELLED)
    assert services.item_claim(item_id=item_id) is None
    assert ItemResult.objects.get(pk=item_id).state == ItemResult.State.PENDING
