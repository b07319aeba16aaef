"""The call service as a process (manage.py podium_callservice) on real Redis and PostgreSQL,
asked directly over its socket, the way a worker's gateway asks it."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from evaluators.llm import CallServiceUnavailable, Gateway
from evaluators.llm_service import CallServiceClient, ServiceReply, encode_request
from jobs.llm_wiring import INTENT_CLASS
from jobs.models import CachedResponse, LLMCall
from tests.fakes.openai_server import Reply
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

MESSAGES = [{"role": "user", "content": "What is the speed of light?"}]


def _ask(address: str, model, *, sample_index: int = 0) -> ServiceReply:
    request = Gateway().prepare(MESSAGES, model, sample_index)
    line = encode_request(
        request_hash=request.request_hash,
        model=model,
        messages=MESSAGES,
        params=None,
        sample_index=sample_index,
        purpose="model",
        tags={},
    )
    return CallServiceClient(address).call(line, wait_s=120)


def _all_at_once(calls) -> list:
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001  (collected and asserted on)
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    return results


def test_two_hosts_asked_for_one_request_at_once_send_it_once(call_service, fake_llm):
    fake_llm.rule = lambda request: Reply(text="About 3e8 m/s.", latency=2.0)
    model = fake_llm.model_config()
    host_a, host_b = call_service(), call_service()
    replies = _all_at_once(
        [lambda: _ask(host_a.address, model) for _ in range(3)]
        + [lambda: _ask(host_b.address, model) for _ in range(3)]
    )
    assert all(isinstance(r, ServiceReply) and r.error is None for r in replies), replies
    assert {r.entry["text"] for r in replies} == {"About 3e8 m/s."}
    assert fake_llm.counters.requests == 1  # one service sent it; the other waited for the store
    sources = sorted(r.source for r in replies)
    assert sources.count("sent") == 1, sources
    assert set(sources) <= {"sent", "joined", "stored"}
    assert CachedResponse.objects.count() == 1
    billed = LLMCall.objects.filter(cache_hit=False)
    assert billed.count() == 1 and billed.get().error_class == ""


def test_a_stored_reply_is_answered_without_a_request(call_service, fake_llm):
    fake_llm.rule = lambda request: "About 3e8 m/s."
    model = fake_llm.model_config()
    service = call_service()
    first = _ask(service.address, model)
    again = _ask(service.address, model)
    other_sample = _ask(service.address, model, sample_index=1)
    assert (first.source, again.source, other_sample.source) == ("sent", "stored", "sent")
    assert fake_llm.counters.requests == 2  # the sample index makes a distinct request
    assert CachedResponse.objects.count() == 2


def test_sigterm_drains_the_calls_in_flight_then_refuses_new_ones(call_service, fake_llm):
    fake_llm.rule = lambda request: Reply(text="About 3e8 m/s.", latency=3.0)
    model = fake_llm.model_config()
    service = call_service()
    results: list = []
    asking = threading.Thread(
        target=lambda: results.extend(
            _all_at_once(
                [lambda i=i: _ask(service.address, model, sample_index=i) for i in range(3)]
            )
        )
    )
    asking.start()
    wait_for(lambda: fake_llm.counters.in_flight == 3, timeout=60, what="three calls in flight")
    stopped = time.monotonic()
    service.proc.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    with pytest.raises(CallServiceUnavailable):  # draining: no new calls
        _ask(service.address, model, sample_index=9)
    assert service.proc.wait(60) == 0
    assert time.monotonic() - stopped >= 1.5  # it waited for the replies
    asking.join(60)
    assert [r.source for r in results] == ["sent"] * 3, results
    assert CachedResponse.objects.count() == 3
    assert LLMCall.objects.filter(cache_hit=False, error_class="").count() == 3
    assert not LLMCall.objects.filter(error_class=INTENT_CLASS).exists()
    assert "stopped after draining" in service.log()
