"""The response cache: a repeated request costs nothing and sends nothing."""

from __future__ import annotations

import pytest

from evaluators.llm import InMemoryResponseCache, PermanentLLMError
from tests.fakes.openai_server import Reply

USER = [{"role": "user", "content": "Name a prime."}]


def test_it_serves_a_repeat_from_the_cache_without_a_request(fake_llm, make_gateway, recorder):
    fake_llm.script(Reply(text="7", prompt_tokens=100, completion_tokens=10))
    cache = InMemoryResponseCache()
    gateway = make_gateway(cache=cache, on_call=recorder)
    model = fake_llm.model_config(model="openai/gpt-4o-mini")

    first = gateway.complete(USER, model=model)
    second = gateway.complete(USER, model=model)

    assert fake_llm.counters.requests == 1
    assert len(cache) == 1
    assert first.cached is False and first.cost_usd > 0
    assert second.cached is True and second.cost_usd == 0.0 and second.attempts == 0
    assert second.text == "7" and second.request_hash == first.request_hash
    assert (second.input_tokens, second.output_tokens) == (100, 10)
    hit = recorder.records[1]
    assert hit.cache_hit and hit.cost_usd == 0.0 and hit.attempts == 0
    assert hit.input_tokens == 0  # nothing was spent on the hit


def test_it_keys_the_cache_by_sample_index_params_and_model(fake_llm, make_gateway):
    gateway = make_gateway(cache=InMemoryResponseCache())
    model = fake_llm.model_config()
    other_model = fake_llm.model_config(slug="other", model="openai/other-model")

    gateway.complete(USER, model=model)
    gateway.complete(USER, model=model, sample_index=1)
    gateway.complete(USER, model=model, params={"temperature": 0.5})
    gateway.complete(USER, model=other_model)
    gateway.complete(USER, model=model, sample_index=1)  # a repeat: from the cache

    assert fake_llm.counters.requests == 4


def test_it_survives_a_new_gateway_sharing_the_cache(fake_llm, make_gateway):
    cache = InMemoryResponseCache()
    model = fake_llm.model_config()
    make_gateway(cache=cache).complete(USER, model=model)

    again = make_gateway(cache=cache).complete(USER, model=model)

    assert again.cached and fake_llm.counters.requests == 1


def test_it_does_not_cache_a_failure(fake_llm, make_gateway):
    from tests.fakes.openai_server import error

    fake_llm.script(error(400, "bad request"))
    cache = InMemoryResponseCache()
    gateway = make_gateway(cache=cache)
    model = fake_llm.model_config()
    with pytest.raises(PermanentLLMError):
        gateway.complete(USER, model=model)

    assert len(cache) == 0
    assert gateway.complete(USER, model=model).cached is False
