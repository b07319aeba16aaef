"""The attempt loop of the LLM gateway: how one prepared request goes to the provider.

This module and ``evaluators.llm`` are the only ones that import litellm. ``AttemptLoop.run``
takes a concurrency slot and a place in the rate window (``evaluators.llm_limits``), calls
``litellm.acompletion`` with litellm's own retries off, and retries here, and only here, with
exponential backoff and full jitter on rate limits (honouring Retry-After), 5xx, timeouts,
connection errors and malformed or empty replies. A timed-out attempt is retried with a longer
timeout, a bounded number of times. The API key is read from ``os.environ[model.api_key_env]``
at call time, by the process that sends, and scrubbed from every text it produced.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_TELEMETRY", "False")

import litellm

from evaluators.base import Message, ModelConfig
from evaluators.llm_limits import Limits, RedisLimits
from evaluators.llm_types import LLMError, PermanentLLMError, TransientLLMError, truncate

# litellm: no telemetry, no callbacks, no debug banners; errors are reported by us.
litellm.telemetry = False
litellm.suppress_debug_info = True
litellm.set_verbose = False
litellm.success_callback = []
litellm.failure_callback = []
litellm.callbacks = []
for _name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
    logging.getLogger(_name).setLevel(logging.CRITICAL)

log = logging.getLogger(__name__)

# Sent as the key to an api_base when the model names no key variable (see AttemptLoop.run).
NO_KEY_PLACEHOLDER = "no-key"

_PERMANENT = (
    litellm.AuthenticationError,
    litellm.PermissionDeniedError,
    litellm.BadRequestError,  # includes context-window, content-policy, unsupported-params
    litellm.NotFoundError,
    litellm.UnprocessableEntityError,
)
_TRANSIENT = (
    litellm.RateLimitError,
    litellm.Timeout,
    litellm.APIConnectionError,
    litellm.InternalServerError,
    litellm.ServiceUnavailableError,
    litellm.BadGatewayError,
    litellm.APIResponseValidationError,
)
_TRANSIENT_STATUS = frozenset({408, 409, 425, 429})


class EmptyReplyError(Exception):
    """The provider answered 200 with no choices or an empty message while not out of
    tokens: a provider glitch, retried."""


@dataclass(frozen=True)
class Request:
    """A call ready to send: hashed, with its effective parameters (model's, then the call's)
    and timeout. ``call_params`` is what the caller passed, kept so that the request can be
    rebuilt, and hashed again, by a call service."""

    request_hash: str
    model: ModelConfig
    messages: Sequence[Message]
    params: dict[str, Any]
    timeout: float
    sample_index: int
    purpose: str
    est_tokens: int
    started: float
    prompt_tokens_est: int = 0
    call_params: Mapping[str, Any] | None = None


@dataclass
class Outcome:
    """What the attempt loop produced: a response or the final error, and how."""

    attempts: int = 0
    retry_reasons: tuple[str, ...] = ()
    latency_s: float = 0.0
    text: str = ""
    finish_reason: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = None
    cost_known: bool = True
    error: LLMError | None = None
    timeouts: list[float] | None = None  # the client timeout of each attempt that timed out


class LoopThread:
    """A private event loop in a daemon thread, so sync callers reuse one connection pool
    (litellm's clients are bound to the loop that made them). Recreated after a fork."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="llm-gateway", daemon=True
        )
        self.thread.start()

    def run(self, coro: Any) -> Any:
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result()

    def stop(self, limits: Limits) -> None:
        async def wind_down() -> None:
            # litellm leaves a logging task on every loop it used; end it (and our Redis
            # connections) here rather than leave pending tasks to be destroyed later.
            if isinstance(limits, RedisLimits):
                await limits.aclose()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(wind_down(), self.loop).result(5)
        except Exception:  # best effort: the loop is going away either way
            log.debug("LLM gateway loop did not wind down cleanly", exc_info=True)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()


class AttemptLoop:
    """Sends prepared requests, with the retry, timeout and backoff rules of the gateway.

    Backoff is exponential with full jitter: the n-th retry waits uniformly in
    [0, min(backoff_max_s, backoff_base_s * 2**(n-1))]. A Retry-After header replaces that
    wait (capped at ``max_retry_after_s``, plus under a second of jitter). A timed-out request
    is usually still generated, and billed, by the provider: retrying it with the same timeout
    pays again for a reply that will time out again. So each timeout multiplies the next
    attempt's timeout by ``timeout_growth`` (up to ``max_timeout_factor`` x the model's), and
    after ``max_timeouts`` the call fails, saying so.
    """

    def __init__(
        self,
        *,
        limits: Limits,
        max_attempts: int,
        backoff_base_s: float,
        backoff_max_s: float,
        max_retry_after_s: float,
        max_timeouts: int,
        timeout_growth: float,
        max_timeout_factor: float,
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.limits = limits
        self.max_attempts = max_attempts
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        self.max_timeouts = max_timeouts
        self.timeout_growth = timeout_growth
        self.max_timeout_factor = max_timeout_factor
        self.prices: dict[str, tuple[float, float] | None] = {}

    def longest(self, request: Request) -> float:
        """An upper bound of ``run(request)``'s duration (every attempt at its longest timeout,
        every backoff at its ceiling), for a caller that waits on it from elsewhere."""
        per_attempt = request.timeout * self.max_timeout_factor
        wait = max(self.backoff_max_s, self.max_retry_after_s + 1.0)
        return self.max_attempts * (per_attempt + wait)

    async def run(self, request: Request) -> Outcome:
        """Send ``request`` until it succeeds, fails permanently or runs out of attempts."""
        model = request.model
        outcome = Outcome()
        api_key: str | None = None
        if model.api_key_env:
            api_key = os.environ.get(model.api_key_env)
            if not api_key:
                outcome.error = PermanentLLMError(
                    f"model {model.slug!r}: environment variable {model.api_key_env} (its API "
                    "key) is not set on this host",
                    model=model.model,
                )
                return outcome
        kwargs: dict[str, Any] = dict(request.params)
        kwargs.update(
            model=model.model,
            messages=list(request.messages),
            timeout=request.timeout,
            num_retries=0,
            max_retries=0,
        )
        if model.api_base:
            kwargs["api_base"] = model.api_base
        if api_key:
            kwargs["api_key"] = api_key
        elif model.api_base:
            # A local OpenAI-compatible server (vLLM, llama.cpp, Ollama) needs no key, but the
            # OpenAI client refuses to send a request without one ("Missing credentials", which
            # looked transient and was retried), and without an explicit key litellm would send
            # OPENAI_API_KEY from this host's environment to whatever api_base names.
            kwargs["api_key"] = NO_KEY_PLACEHOLDER
        limits, key = self.limits, model.slug
        reasons: list[str] = []
        while True:
            outcome.attempts += 1
            retry_after: float | None = None
            try:
                if model.max_concurrency:
                    async with limits.slot(key, model.max_concurrency):
                        response = await self._send_one(request, kwargs, key, outcome)
                else:
                    response = await self._send_one(request, kwargs, key, outcome)
                self._read(response, outcome, model.model)
                # A provider (or a proxy) may echo the key in a successful reply: scrub it here,
                # before the text reaches the cache, the call log, the item and its pages.
                outcome.text = scrub(outcome.text, api_key)
                outcome.retry_reasons = tuple(reasons)
                return outcome
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001  (classified below; unknown means permanent)
                permanent, name = classify(exc)
                status = getattr(exc, "status_code", None)
                # the status goes in the text: the public sees only "provider returned 403"
                http = f" (HTTP {status})" if isinstance(status, int) else ""
                message = scrub(f"{name}{http}: {exc}", api_key)
                if isinstance(exc, litellm.AuthenticationError):
                    who = (
                        f"the key in {model.api_key_env}"
                        if model.api_key_env
                        else "no key (none is configured for this model)"
                    )
                    message = (
                        f"authentication failed (HTTP 401): the endpoint rejected {who}; {message}"
                    )
                timed_out = isinstance(exc, (litellm.Timeout, TimeoutError))
                if timed_out:
                    outcome.timeouts = [*(outcome.timeouts or []), kwargs["timeout"]]
                    kwargs["timeout"] = min(
                        kwargs["timeout"] * self.timeout_growth,
                        request.timeout * self.max_timeout_factor,
                    )
                    self._cost_of_timeouts(request, outcome)
                gave_up_timeouts = timed_out and len(outcome.timeouts or []) >= self.max_timeouts
                if permanent or outcome.attempts >= self.max_attempts or gave_up_timeouts:
                    cls = PermanentLLMError if permanent else TransientLLMError
                    tail = "" if permanent else f" (gave up after {outcome.attempts} attempts)"
                    if gave_up_timeouts:
                        waits = ", ".join(f"{t:g}" for t in outcome.timeouts or [])
                        tail = (
                            f" (timed out {len(outcome.timeouts or [])} times, after {waits} s;"
                            " each timed-out request may still be billed: raise the model's"
                            " timeout)"
                        )
                    outcome.error = cls(
                        f"model {model.slug!r}: {truncate(message, 2000)}{tail}",
                        model=model.model,
                        attempts=outcome.attempts,
                        error_class=name,
                    )
                    outcome.retry_reasons = tuple(reasons)
                    return outcome
                reasons.append(name)
                retry_after = retry_after_of(exc)
            await asyncio.sleep(self.backoff(outcome.attempts, retry_after))

    async def _send_one(
        self, request: Request, kwargs: dict[str, Any], key: str, outcome: Outcome
    ) -> Any:
        """One request, once the limits allow it; its duration lands in outcome.latency_s
        (also when it fails, so a timed-out attempt shows its timeout)."""
        model = request.model
        ticket = await self.limits.admit(
            key, rpm=model.rpm, tpm=model.tpm, tokens=request.est_tokens
        )
        started = time.perf_counter()
        try:
            response = await litellm.acompletion(**kwargs)
        finally:
            outcome.latency_s = time.perf_counter() - started
        if model.tpm:
            usage = getattr(response, "usage", None)
            actual = int(getattr(usage, "total_tokens", 0) or 0) if usage else request.est_tokens
            await self.limits.settle(key, ticket, estimated=request.est_tokens, actual=actual)
        return response

    def _read(self, response: Any, outcome: Outcome, model_name: str) -> None:
        choices = getattr(response, "choices", None)
        if not choices:
            raise EmptyReplyError("reply has no choices")
        choice = choices[0]
        message = getattr(choice, "message", None)
        text = getattr(message, "content", None) or ""
        finish = getattr(choice, "finish_reason", None)
        if (
            not text
            and finish not in ("length", "content_filter")
            and not getattr(message, "tool_calls", None)
        ):
            raise EmptyReplyError(f"empty reply (finish_reason={finish})")
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        details = getattr(usage, "completion_tokens_details", None)
        reasoning = int(getattr(details, "reasoning_tokens", 0) or 0) if details else 0
        price = self.price(model_name)
        outcome.text = text
        outcome.finish_reason = finish
        outcome.input_tokens, outcome.output_tokens = prompt, completion
        outcome.reasoning_tokens = reasoning
        if price is None:
            outcome.cost_usd, outcome.cost_known = None, False
        else:
            earlier = len(outcome.timeouts or [])
            # timed-out attempts: their prompt is known (this one's), their output is not
            outcome.cost_usd = prompt * price[0] * (1 + earlier) + completion * price[1]
            outcome.cost_known = not earlier

    def _cost_of_timeouts(self, request: Request, outcome: Outcome) -> None:
        """What the timed-out attempts cost at least (their prompts, estimated from its
        length); unknown in full, since the output the provider generated never arrived."""
        price = self.price(request.model.model)
        n = len(outcome.timeouts or [])
        outcome.cost_usd = None if price is None else n * request.prompt_tokens_est * price[0]
        outcome.cost_known = False

    def price(self, model_name: str) -> tuple[float, float] | None:
        """(input, output) USD per token from litellm's table, looked up once per model."""
        prices = self.prices
        if model_name not in prices:
            try:
                info = litellm.get_model_info(model_name)
                price: tuple[float, float] | None = (
                    float(info.get("input_cost_per_token") or 0.0),
                    float(info.get("output_cost_per_token") or 0.0),
                )
                if not info.get("input_cost_per_token") and not info.get("output_cost_per_token"):
                    price = None
            except Exception:  # noqa: BLE001  (litellm raises several types for an unmapped model)
                price = None
            prices[model_name] = price
        return prices[model_name]

    def backoff(self, failed_attempts: int, retry_after: float | None) -> float:
        if retry_after is not None:
            # The provider said when; a little jitter keeps the workers from returning at once.
            return min(retry_after, self.max_retry_after_s) + random.uniform(
                0, min(self.backoff_base_s, 1.0)
            )
        ceiling = min(self.backoff_max_s, self.backoff_base_s * 2 ** (failed_attempts - 1))
        return random.uniform(0, ceiling)


def model_string_problem(model: str) -> str | None:
    """Why litellm could not route ``model`` (e.g. an unknown provider), or None if it can.
    Used when an admin registers a model, so a typo fails at save time, not mid-job."""
    if model.startswith("builtin/"):
        return None
    try:
        provider = litellm.get_llm_provider(model=model)[1]
    except Exception as exc:  # noqa: BLE001  (litellm signals this with several types)
        first_line = (str(exc).splitlines() or [type(exc).__name__])[0]
        return f"litellm cannot route {model!r}: {truncate(first_line, 300)}"
    if not provider:
        return f"litellm finds no provider for {model!r}"
    return None


def measure(messages: Sequence[Message]) -> tuple[int, int]:
    """(characters of text, number of images) without copying anything."""
    chars = images = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            chars += len(content)
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, dict):
                    if part.get("type") == "image_url":
                        images += 1
                    else:
                        chars += len(str(part.get("text", "")))
    return chars, images


def classify(exc: BaseException) -> tuple[bool, str]:
    """(permanent?, error class name) for an exception raised by one attempt."""
    name = type(exc).__name__
    if isinstance(exc, EmptyReplyError):
        return False, name
    if type(exc).__module__.startswith("redis"):
        return False, name  # the shared limiter's Redis hiccuped: try again
    if isinstance(exc, _TRANSIENT):
        return False, name
    if isinstance(exc, _PERMANENT):
        return True, name
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return not (status in _TRANSIENT_STATUS or status >= 500), name
    if isinstance(exc, (TimeoutError, ConnectionError, ValueError)):
        return False, name  # ValueError: a reply that would not parse
    return True, name


def retry_after_of(exc: BaseException) -> float | None:
    """Seconds from a Retry-After(-ms) header on the error's response, if any."""
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms:
            return max(0.0, float(ms) / 1000.0)
        value = headers.get("retry-after")
    except Exception:  # noqa: BLE001  (a header mapping we cannot read gives no hint)
        return None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def scrub(text: str, api_key: str | None) -> str:
    """The text with every occurrence of the API key replaced. Keys shorter than 8 characters
    are not real provider keys (and would blank ordinary words), so they are left alone."""
    if api_key and len(api_key) >= 8 and api_key in text:
        text = text.replace(api_key, "***")
    return text
