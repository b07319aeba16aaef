"""A local OpenAI-compatible server (vLLM, llama.cpp, Ollama) with no key variable: the call
goes out with a placeholder key (never the host's OPENAI_API_KEY), and a 401 from such a
server is permanent, sent once, and says what was rejected."""

from __future__ import annotations

import pytest

from evaluators.llm import NO_KEY_PLACEHOLDER, PermanentLLMError
from tests.fakes.openai_server import error

USER = [{"role": "user", "content": "ping"}]
HOST_OPENAI_KEY = "sk-host-openai-key-that-must-not-travel"


def test_it_calls_a_server_that_takes_no_key(fake_llm, make_gateway, recorder, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", HOST_OPENAI_KEY)
    fake_llm.script("pong")
    model = fake_llm.model_config(slug="local", model="openai/qwen2.5-7b", api_key_env=None)

    reply = make_gateway(on_call=recorder).complete(USER, model=model)

    assert reply.text == "pong" and reply.attempts == 1
    assert fake_llm.counters.requests == 1
    assert fake_llm.counters.authorizations == [f"Bearer {NO_KEY_PLACEHOLDER}"]
    assert recorder.records[0].error_class == ""


def test_it_fails_at_once_when_a_keyless_server_answers_401(fake_llm, make_gateway, recorder):
    fake_llm.script(
        error(401, "Unauthorized: this server wants a token", "invalid_api_key"), "never served"
    )
    model = fake_llm.model_config(slug="local", model="openai/qwen2.5-7b", api_key_env=None)

    with pytest.raises(PermanentLLMError) as raised:
        make_gateway(on_call=recorder).complete(USER, model=model)

    assert fake_llm.counters.requests == 1  # never retried
    assert raised.value.error_class == "AuthenticationError"
    assert "authentication failed (HTTP 401)" in str(raised.value)
    assert "no key" in str(raised.value)
    [record] = recorder.records
    assert record.retries == 0 and record.attempts == 1
