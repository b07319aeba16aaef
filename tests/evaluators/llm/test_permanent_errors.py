"""Permanent failures are typed, never retried, and never show the API key."""

from __future__ import annotations

import pytest

from evaluators.llm import LLMError, PermanentLLMError
from tests.fakes.openai_server import FAKE_KEY_VALUE, error

USER = [{"role": "user", "content": "ping"}]


def test_it_does_not_retry_a_rejected_key_and_scrubs_it(fake_llm, make_gateway, recorder):
    # Like OpenAI, the fake echoes the key it was given in its 401 message.
    fake_llm.script(
        error(401, f"Incorrect API key provided: {FAKE_KEY_VALUE}", "invalid_api_key"),
        "never served",
    )
    gateway = make_gateway(on_call=recorder)

    with pytest.raises(PermanentLLMError) as raised:
        gateway.complete(USER, model=fake_llm.model_config())

    assert raised.value.error_class == "AuthenticationError"
    assert fake_llm.counters.requests == 1
    assert FAKE_KEY_VALUE not in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__context__ is None
    [record] = recorder.records
    assert record.error_class == "AuthenticationError" and record.retries == 0
    assert FAKE_KEY_VALUE not in record.error_message and "***" in record.error_message


@pytest.mark.parametrize(
    ("status", "code", "error_class"),
    [
        (400, "invalid_request_error", "BadRequestError"),
        (400, "context_length_exceeded", "ContextWindowExceededError"),
        (404, "model_not_found", "NotFoundError"),
    ],
)
def test_it_does_not_retry_a_bad_request(fake_llm, make_gateway, status, code, error_class):
    message = (
        "This model's maximum context length is 128000 tokens"
        if code == "context_length_exceeded"
        else "no such thing"
    )
    fake_llm.script(error(status, message, code), "never served")

    with pytest.raises(PermanentLLMError) as raised:
        make_gateway().complete(USER, model=fake_llm.model_config())

    assert raised.value.error_class == error_class
    assert isinstance(raised.value, LLMError)
    assert fake_llm.counters.requests == 1


def test_it_names_a_missing_key_variable(fake_llm, make_gateway, recorder, monkeypatch):
    monkeypatch.delenv("PODIUM_TEST_MISSING_KEY", raising=False)
    model = fake_llm.model_config(api_key_env="PODIUM_TEST_MISSING_KEY")

    with pytest.raises(PermanentLLMError, match="PODIUM_TEST_MISSING_KEY") as raised:
        make_gateway(on_call=recorder).complete(USER, model=model)

    assert "is not set" in str(raised.value)
    assert fake_llm.counters.requests == 0
    assert recorder.records[0].error_class == "PermanentLLMError"


def test_it_reads_the_key_at_call_time(fake_llm, make_gateway, monkeypatch):
    gateway = make_gateway()
    model = fake_llm.model_config(api_key_env="PODIUM_TEST_ROTATED_KEY")
    monkeypatch.setenv("PODIUM_TEST_ROTATED_KEY", "sk-first-key-aaaa")
    gateway.complete(USER, model=model)
    monkeypatch.setenv("PODIUM_TEST_ROTATED_KEY", "sk-second-key-bbbb")
    gateway.complete([{"role": "user", "content": "again"}], model=model)

    assert fake_llm.counters.authorizations == [
        "Bearer sk-first-key-aaaa",
        "Bearer sk-second-key-bbbb",
    ]


def test_it_rejects_an_unknown_provider_without_a_request(fake_llm, make_gateway):
    model = fake_llm.model_config(model="no-such-provider/some-model", api_base=None)

    with pytest.raises(PermanentLLMError):
        make_gateway().complete(USER, model=model)
    assert fake_llm.counters.requests == 0


def test_it_refuses_builtin_models(fake_llm, make_gateway):
    model = fake_llm.model_config(model="builtin/random")
    with pytest.raises(PermanentLLMError, match="builtin"):
        make_gateway().complete(USER, model=model)
