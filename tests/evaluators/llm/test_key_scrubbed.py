"""A provider that echoes the API key inside a successful reply: the key is scrubbed at the
gateway, so neither the returned text, the cache nor the call record holds it."""

from __future__ import annotations

from evaluators.llm import InMemoryResponseCache
from tests.fakes.openai_server import FAKE_KEY_VALUE


def test_a_key_echoed_in_a_successful_reply_is_scrubbed(fake_llm, make_gateway, recorder):
    fake_llm.rule = lambda request: f"Your key is {FAKE_KEY_VALUE}. The answer is 4."
    cache = InMemoryResponseCache()
    gateway = make_gateway(on_call=recorder, cache=cache)
    model = fake_llm.model_config()

    completion = gateway.complete([{"role": "user", "content": "2+2"}], model=model)

    assert FAKE_KEY_VALUE not in completion.text and "The answer is 4." in completion.text
    assert FAKE_KEY_VALUE not in repr(cache.get(completion.request_hash))
    assert all(FAKE_KEY_VALUE not in repr(record) for record in recorder.records)
    again = gateway.complete([{"role": "user", "content": "2+2"}], model=model)
    assert again.cached and FAKE_KEY_VALUE not in again.text
