"""Per-model rate and concurrency limits, shared by processes through real Redis."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
import uuid

import pytest

from tests.evaluators.llm.gateway_workers import hold_a_slot, run_calls
from tests.fakes.openai_server import Reply

SPAWN = multiprocessing.get_context("spawn")


def _run_processes(
    fake_llm, redis_url, *, processes, calls, in_flight, model_fields, gateway_fields=None
):
    prefix = f"podium-test:{uuid.uuid4().hex}"
    ready, results, go = SPAWN.Queue(), SPAWN.Queue(), SPAWN.Event()
    children = [
        SPAWN.Process(
            target=run_calls,
            kwargs={
                "tag": f"p{i}",
                "base_url": fake_llm.base_url,
                "redis_url": redis_url,
                "prefix": prefix,
                "calls": calls,
                "in_flight": in_flight,
                "model_fields": model_fields,
                "gateway_fields": {
                    "backoff_base_s": 0.01,
                    "timeout_s": 20.0,
                    **(gateway_fields or {}),
                },
                "ready": ready,
                "go": go,
                "results": results,
            },
        )
        for i in range(processes)
    ]
    for child in children:
        child.start()
    try:
        for _ in children:  # every child has warmed up litellm: start them together
            ready.get(timeout=120)
        fake_llm.reset_counters()
        go.set()
        outcomes = [results.get(timeout=180) for _ in children]
    finally:
        for child in children:
            child.join(10)
            if child.is_alive():
                child.kill()
    return outcomes


def _most_in_any_window(times, window):
    times = sorted(times)
    most, start = 0, 0
    for end in range(len(times)):
        while times[end] - times[start] >= window:
            start += 1
        most = max(most, end - start + 1)
    return most


@pytest.mark.slow
def test_it_keeps_several_processes_under_the_rpm(fake_llm, redis_url):
    window, rpm = 4.0, 6
    fake_llm.configure(latency=0.05)

    outcomes = _run_processes(
        fake_llm,
        redis_url,
        processes=3,
        calls=6,
        in_flight=6,
        model_fields={"slug": "rpm-limited", "model": "openai/fake-model", "rpm": rpm},
        gateway_fields={"rate_window_s": window},
    )

    assert sorted(ok for _, ok, _ in outcomes) == [6, 6, 6], outcomes
    times = sorted(fake_llm.counters.request_times)
    assert len(times) == 18
    relative = [round(t - times[0], 3) for t in times]
    # A request reaches the server a little after the limiter admits it (litellm's CPU
    # work, and this machine is shared): measure windows shorter by that slack.
    assert _most_in_any_window(times, window - 1.0) <= rpm, relative
    assert times[-1] - times[0] >= 2 * window - 1.0, relative  # 18 calls, 6 per window


def test_it_keeps_one_process_under_the_tpm(fake_llm, redis_url, make_gateway):
    window = 2.0
    fake_llm.rule = lambda request: Reply(text="ok", prompt_tokens=100, completion_tokens=50)
    gateway = make_gateway(
        redis_url=redis_url, redis_prefix=f"podium-test:{uuid.uuid4().hex}", rate_window_s=window
    )
    # 400 characters (about 100 tokens) plus max_tokens 50: 150 tokens per call, 2 per window.
    model = fake_llm.model_config(slug="tpm-limited", tpm=300, params={"max_tokens": 50})

    async def six():
        # A first call pays litellm's lazy set-up between admission and sending.
        await gateway.acomplete(
            [{"role": "user", "content": "warm"}], model=fake_llm.model_config(slug="warm-up")
        )
        fake_llm.reset_counters()
        return await asyncio.gather(
            *(
                gateway.acomplete(
                    [{"role": "user", "content": f"{i:03d}" + "x" * 397}], model=model
                )
                for i in range(6)
            )
        )

    assert len(asyncio.run(six())) == 6
    times = fake_llm.counters.request_times
    assert _most_in_any_window(times, window - 0.5) <= 2
    assert max(times) - min(times) >= 2 * window - 0.5


@pytest.mark.slow
def test_it_caps_concurrency_across_processes(fake_llm, redis_url):
    fake_llm.configure(latency=0.15)

    outcomes = _run_processes(
        fake_llm,
        redis_url,
        processes=3,
        calls=12,
        in_flight=8,
        model_fields={"slug": "capped", "model": "openai/fake-model", "max_concurrency": 4},
    )

    assert sorted(ok for _, ok, _ in outcomes) == [12, 12, 12], outcomes
    assert fake_llm.counters.successful == 36
    assert fake_llm.counters.max_in_flight == 4  # reached, never exceeded


def test_it_caps_concurrency_within_a_process_without_redis(fake_llm, make_gateway):
    fake_llm.configure(latency=0.05)
    gateway = make_gateway()  # no Redis URL: process-local limits
    model = fake_llm.model_config(slug="capped-local", max_concurrency=2)

    async def many():
        return await asyncio.gather(
            *(
                gateway.acomplete([{"role": "user", "content": f"q{i}"}], model=model)
                for i in range(10)
            )
        )

    assert len(asyncio.run(many())) == 10
    assert fake_llm.counters.max_in_flight == 2


@pytest.mark.slow
def test_it_recovers_the_slot_of_a_killed_worker(fake_llm, redis_url, make_gateway):
    from tests.fakes.openai_server import fault

    prefix = f"podium-test:{uuid.uuid4().hex}"
    lease_ttl = 3.0
    fields = {
        "slug": "one-slot",
        "model": "openai/fake-model",
        "max_concurrency": 1,
        "params": {"timeout": 25},
    }
    fake_llm.configure(hang_s=25.0)
    fake_llm.script(fault("timeout"))
    child = SPAWN.Process(
        target=hold_a_slot,
        kwargs={
            "base_url": fake_llm.base_url,
            "redis_url": redis_url,
            "prefix": prefix,
            "model_fields": fields,
            "lease_ttl_s": lease_ttl,
        },
    )
    child.start()
    try:
        deadline = time.monotonic() + 60
        while fake_llm.counters.requests == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake_llm.counters.requests == 1, "the child never sent its call"
        os.kill(child.pid, signal.SIGKILL)  # it dies holding the only slot
        child.join(10)
    finally:
        if child.is_alive():
            child.kill()
    killed_at = time.monotonic()
    gateway = make_gateway(redis_url=redis_url, redis_prefix=prefix, lease_ttl_s=lease_ttl)
    model = fake_llm.model_config(**fields)

    completion = gateway.complete([{"role": "user", "content": "after"}], model=model)

    assert completion.text == "fake reply to: after"
    waited = time.monotonic() - killed_at
    assert 0.5 < waited < lease_ttl + 5  # blocked until the dead lease expired, not forever


def test_it_treats_an_unreachable_limiter_as_transient(fake_llm, make_gateway):
    from evaluators.llm import TransientLLMError

    gateway = make_gateway(redis_url="redis://127.0.0.1:1/0", max_attempts=2)

    with pytest.raises(TransientLLMError, match="gave up after 2 attempts"):
        gateway.complete(
            [{"role": "user", "content": "hi"}], model=fake_llm.model_config(slug="limited", rpm=10)
        )
    assert fake_llm.counters.requests == 0  # nothing is sent without the limiter's say-so


def test_a_live_call_keeps_its_slot_beyond_the_lease(fake_llm, redis_url, make_gateway):
    """The lease is short (a killed holder frees it fast), so a live call renews it: a call
    lasting three leases must not let a second call into a one-slot model."""
    prefix = f"podium-test:{uuid.uuid4().hex}"
    fake_llm.configure(latency=3.0)
    gateway = make_gateway(redis_url=redis_url, redis_prefix=prefix, lease_ttl_s=1.0)
    model = fake_llm.model_config(slug="one-renewed-slot", max_concurrency=1)

    async def two_calls():
        return await asyncio.gather(
            *(
                gateway.acomplete([{"role": "user", "content": f"long {i}"}], model=model)
                for i in range(2)
            )
        )

    assert len(asyncio.run(two_calls())) == 2
    assert fake_llm.counters.successful == 2
    assert fake_llm.counters.max_in_flight == 1


@pytest.mark.slow
def test_a_killed_holder_frees_its_slot_within_seconds_by_default(
    fake_llm, redis_url, make_gateway
):
    """With the default lease (no lease_ttl_s given), a holder SIGKILLed mid-call blocks the
    slot for seconds, not for its call timeout plus a minute."""
    from evaluators.llm_limits import DEFAULT_SLOT_LEASE_S
    from tests.fakes.openai_server import fault

    prefix = f"podium-test:{uuid.uuid4().hex}"
    fields = {
        "slug": "one-slot-default",
        "model": "openai/fake-model",
        "max_concurrency": 1,
        "params": {"timeout": 120},
    }
    fake_llm.configure(hang_s=60.0)
    fake_llm.script(fault("timeout"))
    child = SPAWN.Process(
        target=hold_a_slot,
        kwargs={
            "base_url": fake_llm.base_url,
            "redis_url": redis_url,
            "prefix": prefix,
            "model_fields": fields,
            "lease_ttl_s": None,
        },
    )
    child.start()
    try:
        deadline = time.monotonic() + 60
        while fake_llm.counters.requests == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake_llm.counters.requests == 1, "the child never sent its call"
        time.sleep(DEFAULT_SLOT_LEASE_S / 2)  # renewed at least once while alive
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
    finally:
        if child.is_alive():
            child.kill()
    killed_at = time.monotonic()
    gateway = make_gateway(redis_url=redis_url, redis_prefix=prefix)
    completion = gateway.complete(
        [{"role": "user", "content": "after"}], model=fake_llm.model_config(**fields)
    )
    assert completion.text == "fake reply to: after"
    assert time.monotonic() - killed_at < DEFAULT_SLOT_LEASE_S + 3
