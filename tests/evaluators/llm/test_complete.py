"""A call through litellm over real HTTP: text, usage, cost, the call record."""

from __future__ import annotations

import asyncio

import pytest

from tests.fakes.openai_server import FAKE_KEY_VALUE, Reply

USER = [{"role": "user", "content": "What is 2 + 2?"}]


def test_it_returns_text_usage_and_cost_for_a_priced_model(fake_llm, make_gateway, recorder):
    fake_llm.script(Reply(text="4", prompt_tokens=1000, completion_tokens=200, reasoning_tokens=50))
    gateway = make_gateway(on_call=recorder)
    model = fake_llm.model_config(model="openai/gpt-4o-mini")

    completion = gateway.complete(USER, model=model)

    assert completion.text == "4"
    assert (completion.input_tokens, completion.output_tokens, completion.reasoning_tokens) == (
        1000,
        200,
        50,
    )
    # gpt-4o-mini in litellm's table: $0.15 / M input, $0.60 / M output tokens.
    assert completion.cost_usd == pytest.approx(1000 * 0.15e-6 + 200 * 0.6e-6)
    assert completion.cached is False and completion.attempts == 1
    assert completion.finish_reason == "stop"
    assert completion.latency_s > 0
    assert len(completion.request_hash) == 64
    # The request reached the server with the key from the environment variable.
    assert fake_llm.counters.requests == 1
    assert fake_llm.counters.authorizations == [f"Bearer {FAKE_KEY_VALUE}"]
    assert fake_llm.counters.requests_json[0]["messages"] == USER
    [record] = recorder.records
    assert record.ok and record.reply == "4" and record.cost_known
    assert record.cost_usd == completion.cost_usd
    assert (record.attempts, record.retries, record.cache_hit) == (1, 0, False)
    assert record.messages == USER and record.purpose == "model"


def test_it_flags_an_unknown_price_with_null_cost(fake_llm, make_gateway, recorder):
    fake_llm.script(Reply(text="hello", prompt_tokens=10, completion_tokens=3))
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(USER, model=fake_llm.model_config(model="openai/fake-model"))

    assert completion.text == "hello"
    assert completion.cost_usd is None
    assert (completion.input_tokens, completion.output_tokens) == (10, 3)
    [record] = recorder.records
    assert record.cost_usd is None and record.cost_known is False


def test_it_passes_generation_params_and_merges_overrides(fake_llm, make_gateway):
    gateway = make_gateway()
    model = fake_llm.model_config(params={"temperature": 0.2, "max_tokens": 64})

    gateway.complete(USER, model=model, params={"temperature": 0.9})

    sent = fake_llm.counters.requests_json[0]
    assert sent["temperature"] == 0.9
    assert sent["max_tokens"] == 64


def test_it_sends_images_and_logs_a_placeholder(fake_llm, make_gateway, recorder):
    image = "data:image/png;base64," + "iVBORw0KGgo" * 2000
    messages = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in the figure?"},
                {"type": "image_url", "image_url": {"url": image}},
            ],
        }
    ]
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(messages, model=fake_llm.model_config(vision=True))

    assert completion.text.startswith("fake reply to: What is in the figure?")
    sent_parts = fake_llm.counters.requests_json[0]["messages"][0]["content"]
    assert sent_parts[1]["image_url"]["url"] == image
    logged = recorder.records[0].messages[0]["content"]
    assert logged[0] == {"type": "text", "text": "What is in the figure?"}
    assert logged[1]["image_url"]["url"].startswith("[image data omitted: image/png")
    assert image not in str(recorder.records[0].messages)


def test_it_bounds_long_text_in_the_record(fake_llm, make_gateway, recorder):
    long_reply = "x" * 150_000
    fake_llm.script(long_reply)
    gateway = make_gateway(on_call=recorder)

    completion = gateway.complete(
        [{"role": "user", "content": "y" * 50_000}], model=fake_llm.model_config()
    )

    assert completion.text == long_reply  # the evaluator gets everything
    record = recorder.records[0]
    assert len(record.reply) < 100_100 and "truncated 50000 characters" in record.reply
    assert len(record.messages[0]["content"]) < 20_100


def test_it_refuses_images_for_a_text_only_model(fake_llm, make_gateway):
    from evaluators.llm import PermanentLLMError

    messages = [
        {
            "role": "user",
            "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}],
        }
    ]
    with pytest.raises(PermanentLLMError, match="not marked as vision-capable"):
        make_gateway().complete(messages, model=fake_llm.model_config(vision=False))
    assert fake_llm.counters.requests == 0


def test_it_calls_from_asyncio_code(fake_llm, make_gateway, recorder):
    fake_llm.rule = lambda request: "async " + request["messages"][-1]["content"]
    gateway = make_gateway(on_call=recorder)
    model = fake_llm.model_config()

    async def many():
        return await asyncio.gather(
            *(
                gateway.acomplete([{"role": "user", "content": f"q{i}"}], model=model)
                for i in range(20)
            )
        )

    completions = asyncio.run(many())

    assert [c.text for c in completions] == [f"async q{i}" for i in range(20)]
    assert fake_llm.counters.successful == 20 and len(recorder.records) == 20


def test_it_explains_a_model_string_litellm_cannot_route():
    from evaluators.llm import model_string_problem

    assert model_string_problem("openai/gpt-4o-mini") is None
    assert model_string_problem("hosted_vllm/my-local-model") is None
    assert model_string_problem("builtin/random") is None
    problem = model_string_problem("nonsense-provider/some-model")
    assert problem is not None and "nonsense-provider/some-model" in problem
