"""Code run in child processes by the multi-process limiter tests (spawned, so each child
imports litellm and builds its own Gateway, as a Celery worker process would)."""

from __future__ import annotations

import asyncio
import os
from typing import Any


def run_calls(
    *,
    tag: str,
    base_url: str,
    redis_url: str,
    prefix: str,
    calls: int,
    in_flight: int,
    model_fields: dict[str, Any],
    gateway_fields: dict[str, Any],
    ready: Any,
    go: Any,
    results: Any,
) -> None:
    """Wait for ``go``, then make ``calls`` calls with ``in_flight`` at a time; report
    (tag, successes, error strings) on ``results``."""
    from evaluators.base import ModelConfig
    from evaluators.llm import Gateway
    from tests.fakes.openai_server import FAKE_KEY_ENV

    gateway = Gateway(redis_url=redis_url, redis_prefix=prefix, **gateway_fields)
    model = ModelConfig(api_base=base_url, api_key_env=FAKE_KEY_ENV, **model_fields)

    async def main() -> tuple[int, list[str]]:
        gate = asyncio.Semaphore(in_flight)
        errors: list[str] = []

        async def one(i: int) -> bool:
            async with gate:
                try:
                    await gateway.acomplete(
                        [{"role": "user", "content": f"{tag} call {i}"}], model=model
                    )
                    return True
                except Exception as exc:  # noqa: BLE001  (reported to the parent, which asserts on it)
                    errors.append(f"{type(exc).__name__}: {exc}")
                    return False

        done = await asyncio.gather(*(one(i) for i in range(calls)))
        return sum(done), errors

    # A process's first litellm call is slow (lazy imports, client set-up); a long-lived
    # worker has paid that before, so pay it here before the measured calls start.
    warm = ModelConfig(
        slug=f"warm-up-{os.getpid()}",
        model="openai/fake-model",
        api_base=base_url,
        api_key_env=FAKE_KEY_ENV,
    )
    asyncio.run(gateway.acomplete([{"role": "user", "content": "warm up"}], model=warm))
    ready.put(os.getpid())
    go.wait(120)
    ok, errors = asyncio.run(main())
    results.put((tag, ok, errors))


def hold_a_slot(
    *, base_url: str, redis_url: str, prefix: str, model_fields: dict[str, Any], lease_ttl_s: float
) -> None:
    """Start one call that hangs on the server, holding a concurrency slot until killed."""
    from evaluators.base import ModelConfig
    from evaluators.llm import Gateway
    from tests.fakes.openai_server import FAKE_KEY_ENV

    gateway = Gateway(
        redis_url=redis_url, redis_prefix=prefix, lease_ttl_s=lease_ttl_s, max_attempts=1
    )
    model = ModelConfig(api_base=base_url, api_key_env=FAKE_KEY_ENV, **model_fields)
    gateway.complete([{"role": "user", "content": "hang"}], model=model)
