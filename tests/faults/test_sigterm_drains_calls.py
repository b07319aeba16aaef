"""A graceful stop (SIGTERM, as docker compose stop sends) lets the calls in flight finish and
their items be stored before the worker exits: nothing in flight is lost or paid again."""

from __future__ import annotations

import signal
import time

import pytest

from jobs import services
from jobs.models import CachedResponse, ItemResult, LLMCall
from tests.fakes.openai_server import Reply
from tests.faults.conftest import boxed_rule
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_sigterm_lets_calls_in_flight_finish(
    celery_worker, fake_llm, paid_rule, fake_model, hipho_exam
):
    paid = paid_rule(lambda request: Reply(text=boxed_rule(request), latency=4.0))
    worker = celery_worker(concurrency=2, lease=30)
    job = services.job_submit(models=[fake_model], benchmarks=[hipho_exam], samples=1)
    wait_for(lambda: fake_llm.counters.in_flight >= 2, timeout=90, what="two calls in flight")
    running = set(
        ItemResult.objects.filter(run__job=job, state="running").values_list("pk", flat=True)
    )
    assert len(running) == 2

    stopped = time.monotonic()
    worker.kill(signal.SIGTERM)  # returns when the worker has exited
    assert time.monotonic() - stopped >= 1.0  # it waited for the replies

    states = dict(ItemResult.objects.filter(pk__in=running).values_list("pk", "state"))
    assert set(states.values()) == {"done"}, states
    assert not LLMCall.objects.filter(item_id__in=running, error_class="InFlight").exists()
    assert paid.paid == CachedResponse.objects.filter(model=fake_model.litellm_model).count()
    assert not paid.paid_twice()
