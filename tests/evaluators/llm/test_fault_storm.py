"""With 30% transient faults injected, 1,000 calls all complete and every retry is counted."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from tests.fakes.openai_server import FAULT_KINDS

# How litellm surfaces each injected fault to the gateway.
EXPECTED_REASON = {
    "rate_limit": "RateLimitError",
    "server_error": "InternalServerError",
    "malformed": "InternalServerError",  # litellm wraps the JSON decode failure as a 500
    "truncated": "InternalServerError",
    "empty_body": "InternalServerError",
    "empty": "EmptyReplyError",
    "timeout": "Timeout",
}


@pytest.mark.slow
def test_it_completes_1000_calls_through_30_percent_faults(fake_llm, make_gateway, recorder):
    assert set(EXPECTED_REASON) == set(FAULT_KINDS)
    # The gateway doubles a timed-out call's timeout (up to 4x), so a hang must outlast 4 x 1.5 s:
    # a shorter hang ends in a dropped connection, which litellm reports as a 500, not a timeout.
    fake_llm.configure(
        fault_rate=0.3, fault_kinds=FAULT_KINDS, retry_after="0", hang_s=8.0, latency=0.005
    )
    # 12 attempts: the chance that some call meets 12 faults in a row is 1000 * 0.3**12 ~ 5e-4.
    # This test counts retries, not the timeout budget: allow as many timeouts as attempts.
    gateway = make_gateway(
        on_call=recorder,
        max_attempts=12,
        max_timeouts=12,
        backoff_base_s=0.005,
        backoff_max_s=0.05,
    )
    # A timeout well above the fake's 5 ms, so only the injected hangs time out even when
    # this shared machine is busy.
    model = fake_llm.model_config(params={"timeout": 1.5})

    async def storm():
        gate = asyncio.Semaphore(32)

        async def one(i):
            async with gate:
                return await gateway.acomplete(
                    [{"role": "user", "content": f"call {i}"}], model=model
                )

        return await asyncio.gather(*(one(i) for i in range(1000)))

    completions = asyncio.run(storm())

    assert [c.text for c in completions] == [f"fake reply to: call {i}" for i in range(1000)]
    served = fake_llm.counters
    assert served.successful == 1000
    assert served.faults_total > 200  # about 430 expected: 1000 / 0.7 - 1000
    assert len(recorder.records) == 1000 and all(r.ok for r in recorder.records)
    reasons = Counter(reason for r in recorder.records for reason in r.retry_reasons)
    expected = Counter()
    for kind, count in served.faults.items():
        expected[EXPECTED_REASON[kind]] += count
    # Every injected fault was met by exactly one retry, and is logged as such.
    assert sum(r.retries for r in recorder.records) == served.faults_total, (reasons, expected)
    assert sum(c.attempts for c in completions) == served.requests
    assert reasons == expected
