"""Transient faults are retried here, and only here (litellm's own retries are off)."""

from __future__ import annotations

import pytest

from evaluators.llm import TransientLLMError
from tests.fakes.openai_server import fault

USER = [{"role": "user", "content": "ping"}]


def test_it_honours_retry_after_on_429(fake_llm, make_gateway, recorder):
    fake_llm.script(fault("rate_limit", retry_after="1"), "pong")
    gateway = make_gateway(on_call=recorder, backoff_base_s=0.001)

    completion = gateway.complete(USER, model=fake_llm.model_config())

    assert completion.text == "pong" and completion.attempts == 2
    first, second = fake_llm.counters.request_times
    assert second - first >= 1.0  # the base backoff alone would be about a millisecond
    [record] = recorder.records
    assert record.retries == 1 and record.retry_reasons == ("RateLimitError",)


def test_it_honours_retry_after_given_as_an_http_date(fake_llm, make_gateway):
    import time
    from email.utils import formatdate

    fake_llm.script(
        fault("rate_limit", retry_after=formatdate(time.time() + 3, usegmt=True)), "pong"
    )
    make_gateway(backoff_base_s=0.001).complete(USER, model=fake_llm.model_config())

    first, second = fake_llm.counters.request_times
    assert second - first >= 1.5  # an HTTP date has whole seconds: 2 to 3 s ahead


def test_it_retries_server_errors(fake_llm, make_gateway, recorder):
    fake_llm.script(fault("server_error"), fault("server_error"), "pong")
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(USER, model=fake_llm.model_config())

    assert completion.text == "pong" and completion.attempts == 3
    assert fake_llm.counters.requests == 3
    assert recorder.records[0].retry_reasons == ("InternalServerError", "InternalServerError")


def test_it_retries_a_timeout(fake_llm, make_gateway, recorder):
    fake_llm.configure(hang_s=5.0)
    fake_llm.script(fault("timeout"), "pong")
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(USER, model=fake_llm.model_config(params={"timeout": 0.5}))

    assert completion.text == "pong" and completion.attempts == 2
    assert recorder.records[0].retry_reasons == ("Timeout",)


def test_it_records_the_timeout_of_a_call_that_never_answers(fake_llm, make_gateway, recorder):
    fake_llm.configure(hang_s=5.0)
    fake_llm.script(fault("timeout"), fault("timeout"))
    gateway = make_gateway(on_call=recorder, max_attempts=2)

    with pytest.raises(TransientLLMError):
        gateway.complete(USER, model=fake_llm.model_config(params={"timeout": 0.3}))

    [record] = recorder.records
    assert record.error_class == "Timeout" and record.attempts == 2
    assert 0.25 < record.latency_s < 3  # the failed attempt's duration: about its timeout


@pytest.mark.parametrize("kind", ["malformed", "truncated", "empty", "empty_body"])
def test_it_retries_a_broken_reply(fake_llm, make_gateway, recorder, kind):
    fake_llm.script(fault(kind), "pong")
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(USER, model=fake_llm.model_config())

    assert completion.text == "pong" and completion.attempts == 2
    assert fake_llm.counters.faults == {kind: 1}
    assert recorder.records[0].retries == 1


def test_it_gives_up_with_a_transient_error_after_max_attempts(fake_llm, make_gateway, recorder):
    fake_llm.script(*[fault("server_error")] * 3, "never served")
    gateway = make_gateway(on_call=recorder, max_attempts=3)

    with pytest.raises(TransientLLMError, match="gave up after 3 attempts") as raised:
        gateway.complete(USER, model=fake_llm.model_config())

    assert raised.value.attempts == 3 and raised.value.error_class == "InternalServerError"
    assert fake_llm.counters.requests == 3 and fake_llm.scripted_left == 1
    [record] = recorder.records
    assert not record.ok and record.error_class == "InternalServerError"
    assert record.attempts == 3 and record.retries == 2


def test_it_returns_an_empty_reply_cut_by_the_token_limit(fake_llm, make_gateway):
    from tests.fakes.openai_server import Reply

    fake_llm.script(Reply(text="", finish_reason="length", reasoning_tokens=64))

    completion = make_gateway().complete(USER, model=fake_llm.model_config())

    # Retrying cannot help a model that spent its budget thinking: it is the model's answer.
    assert completion.text == "" and completion.finish_reason == "length"
    assert completion.reasoning_tokens == 64 and fake_llm.counters.requests == 1


def test_it_backs_off_the_timeout_and_counts_the_timed_out_attempts(
    fake_llm, make_gateway, recorder
):
    """A reply that takes 1.2 s under a 0.5 s timeout: retrying with the same timeout would pay
    for six replies and get none. The timeout doubles (0.5, 1, 2 s) and the third attempt
    arrives; the record says two attempts timed out and that their cost is not fully known."""
    fake_llm.configure(latency=1.2)
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(
        USER, model=fake_llm.model_config(model="openai/gpt-4o-mini", params={"timeout": 0.5})
    )

    assert completion.attempts == 3 and fake_llm.counters.requests == 3
    [record] = recorder.records
    assert record.retry_reasons == ("Timeout", "Timeout")
    assert record.cost_known is False  # two billed replies never arrived
    one_prompt = record.input_tokens * 0.15e-6  # gpt-4o-mini input price per token
    assert record.cost_usd >= 3 * one_prompt * 0.99


def test_it_fails_clearly_after_repeated_timeouts(fake_llm, make_gateway, recorder):
    fake_llm.configure(hang_s=5.0)
    fake_llm.script(fault("timeout"), fault("timeout"), fault("timeout"), "never sent")
    gateway = make_gateway(on_call=recorder, max_attempts=7)

    with pytest.raises(TransientLLMError, match=r"timed out 3 times, after 0.2, 0.4, 0.8 s"):
        gateway.complete(USER, model=fake_llm.model_config(params={"timeout": 0.2}))

    assert fake_llm.counters.requests == 3
    [record] = recorder.records
    assert record.error_class == "Timeout" and record.cost_known is False
