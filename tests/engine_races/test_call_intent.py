"""Every call sent is in the cost records. A call-log row is opened before the request goes
out and closed with the reply; a worker SIGKILLed mid-call leaves the row open ("InFlight",
cost unknown), so the run counts a request the provider may have billed."""

from __future__ import annotations

import signal
import time

from jobs import queue, services
from jobs.llm_wiring import INTENT_CLASS, CallScope, gateway, scope_set
from jobs.models import ItemResult, LLMCall, Run
from tests.engine_races.conftest import django_process
from tests.fakes.openai_server import fault

CALL_THEN_HANG = """
from catalog.models import ModelEntry
from jobs.llm_wiring import CallScope, gateway, scope_set
from jobs.models import ItemResult
item = ItemResult.objects.get(pk=ITEM)
scope_set(CallScope(run_id=item.run_id, item_id=item.pk))
print("calling", flush=True)
gateway().complete([{"role": "user", "content": "hang"}], model=ModelEntry.objects.get(slug="fake-gpt").to_config())
"""


def test_a_call_killed_in_flight_stays_in_the_cost_records(
    postgres, fake_llm, fake_model, demo_exam, monkeypatch
):
    monkeypatch.setattr(queue, "enqueue_dispatch", lambda job_id: None)
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    first, second = ItemResult.objects.filter(run__job=job).order_by("id")[:2]
    fake_llm.configure(hang_s=15.0)
    fake_llm.script(fault("timeout"))

    proc = django_process(CALL_THEN_HANG.replace("ITEM", str(first.pk)))
    try:
        deadline = time.monotonic() + 90
        while fake_llm.counters.requests == 0 and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.05)
        assert fake_llm.counters.requests == 1, "the call was never sent"
        proc.send_signal(signal.SIGKILL)  # the worker dies with the request on the wire
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()

    [open_row] = LLMCall.objects.filter(item=first)
    assert open_row.error_class == INTENT_CLASS and not open_row.cost_known

    # a call that completes leaves one closed row, not an intent plus a result
    fake_llm.configure(hang_s=0.0)
    scope_set(CallScope(run_id=second.run_id, item_id=second.pk))
    try:
        gateway().complete([{"role": "user", "content": "fine"}], model=fake_model.to_config())
    finally:
        scope_set(None)
    [closed] = LLMCall.objects.filter(item=second)
    assert closed.error_class == "" and closed.reply

    run = services.run_aggregate(run_id=first.run_id)
    assert Run.objects.get(pk=run.pk).cost_unknown_calls == 1  # the lost call is counted
