"""The LLM gateway: the one place that calls language models (through litellm).

``Gateway.complete`` matches ``evaluators.base.Generate``; ``Gateway.acomplete`` is the
same call for asyncio code. Each call:

1. hashes (model string, api base, messages, effective parameters, sample index) and
   returns a cached response when there is one (``cached=True``, no cost, no request);
2. takes a per-model concurrency slot, then a place in the per-model request/token rate
   window (shared through Redis when a URL is given; see ``evaluators.llm_limits``);
3. calls ``litellm.acompletion`` with litellm's own retries off, and retries here, and
   only here, with exponential backoff and full jitter on rate limits (honouring
   Retry-After), 5xx, timeouts, connection errors and malformed or empty replies;
4. stores a success in the cache at once, then reports a ``CallRecord`` to ``on_call``
   (also for cache hits and final failures) and returns a ``Completion``.

The API key is read from ``os.environ[model.api_key_env]`` at call time and is never
logged, stored or put in an error message. Per-call CPU is what bounds throughput (see
DESIGN.md), so nothing here copies long messages, and litellm's callbacks and logging
are switched off.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_TELEMETRY", "False")

import litellm

from evaluators.base import Completion, Message, ModelConfig, Purpose, stable_hash
from evaluators.llm_limits import DEFAULT_SLOT_LEASE_S, Limits, LocalLimits, RedisLimits
from evaluators.llm_types import (
    REPLY_LIMIT,
    CallRecord,
    InMemoryResponseCache,
    LLMError,
    PermanentLLMError,
    ResponseCache,
    TransientLLMError,
    bound_messages,
    truncate,
)

__all__ = [
    "CallRecord",
    "Gateway",
    "InMemoryResponseCache",
    "LLMError",
    "PermanentLLMError",
    "ResponseCache",
    "TransientLLMError",
    "model_string_problem",
]

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

# Sent as the key to an api_base when the model names no key variable (see _attempt_loop).
NO_KEY_PLACEHOLDER = "no-key"

# Parameters that steer the call rather than the output: kept out of the request hash.
_CALL_PARAMS = frozenset({"timeout"})

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
class _Request:
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


@dataclass
class _Outcome:
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


class _LoopThread:
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


class _Shared:
    """State every view of one gateway shares: loop thread, limits, price table."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.lock = threading.Lock()
        self.runner: _LoopThread | None = None
        self.prices: dict[str, tuple[float, float] | None] = {}


class Gateway:
    """Chat completions through litellm with cache, retries, limits and a call log.

    Backoff is exponential with full jitter: the n-th retry waits uniformly in
    [0, min(backoff_max_s, backoff_base_s * 2**(n-1))]. A Retry-After header replaces that
    wait (capped at ``max_retry_after_s``, plus under a second of jitter). ``rate_window_s``
    is the window over which ModelConfig.rpm / tpm are counted (60 s; tests shorten it).
    Limits are keyed by ModelConfig.slug; ``redis_prefix`` namespaces the Redis keys.
    """

    def __init__(
        self,
        *,
        cache: ResponseCache | None = None,
        on_call: Callable[[CallRecord], None] | None = None,
        on_send: Callable[[CallRecord], Any] | None = None,
        redis_url: str | None = None,
        max_attempts: int = 6,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60.0,
        max_retry_after_s: float = 120.0,
        timeout_s: float = 600.0,
        max_timeouts: int = 3,
        timeout_growth: float = 2.0,
        max_timeout_factor: float = 4.0,
        rate_window_s: float = 60.0,
        lease_ttl_s: float | None = None,
        redis_prefix: str = "podium:llm",
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.cache = cache
        self.on_call = on_call
        # Called with the call's record (no reply yet) before the first request is sent; what it
        # returns comes back as CallRecord.intent, so the call log can close the row it opened.
        # A worker killed mid-call leaves that row open: the call was sent, and maybe billed.
        self.on_send = on_send
        self.max_attempts = max_attempts
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        self.timeout_s = timeout_s
        # A timed-out request is usually still generated, and billed, by the provider:
        # retrying it with the same timeout pays again for a reply that will time out again.
        # So each timeout multiplies the next attempt's timeout by timeout_growth (up to
        # max_timeout_factor x the model's), and after max_timeouts the call fails, saying so.
        self.max_timeouts = max_timeouts
        self.timeout_growth = timeout_growth
        self.max_timeout_factor = max_timeout_factor
        limits: Limits
        if redis_url:
            limits = RedisLimits(
                redis_url,
                window_s=rate_window_s,
                lease_ttl_s=lease_ttl_s or DEFAULT_SLOT_LEASE_S,
                prefix=redis_prefix,
            )
        else:
            limits = LocalLimits(window_s=rate_window_s)
        self._shared = _Shared(limits)

    def with_hooks(
        self,
        *,
        cache: ResponseCache | None = None,
        on_call: Callable[[CallRecord], None] | None = None,
    ) -> Gateway:
        """A view of this gateway (same loop, limits and settings) with other hooks,
        e.g. an ``on_call`` that knows which run and item the calls belong to."""
        view = object.__new__(Gateway)
        view.__dict__.update(self.__dict__)
        if cache is not None:
            view.cache = cache
        if on_call is not None:
            view.on_call = on_call
        return view

    # -- public calls ------------------------------------------------------------------

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: ModelConfig,
        sample_index: int = 0,
        purpose: Purpose = "model",
        params: Mapping[str, Any] | None = None,
    ) -> Completion:
        """Blocking call; safe from any thread. Raises PermanentLLMError/TransientLLMError."""
        request = self._prepare(messages, model, sample_index, purpose, params)
        hit = self._from_cache(request)
        if hit is not None:
            return hit
        intent = self._open_intent(request)
        outcome = self._runner().run(self._attempt_loop(request))
        return self._finish(request, outcome, intent)

    __call__ = complete

    async def acomplete(
        self,
        messages: Sequence[Message],
        *,
        model: ModelConfig,
        sample_index: int = 0,
        purpose: Purpose = "model",
        params: Mapping[str, Any] | None = None,
    ) -> Completion:
        """The same call for asyncio code. The cache and on_call run inline on the loop,
        so they should be quick (the in-memory cache is); blocking ones belong with
        ``complete``."""
        request = self._prepare(messages, model, sample_index, purpose, params)
        hit = self._from_cache(request)
        if hit is not None:
            return hit
        intent = self._open_intent(request)
        outcome = await self._attempt_loop(request)
        return self._finish(request, outcome, intent)

    def close(self) -> None:
        """Stop the private loop thread (a later sync call starts a new one)."""
        with self._shared.lock:
            runner, self._shared.runner = self._shared.runner, None
        if runner is not None and runner.pid == os.getpid():
            runner.stop(self._shared.limits)

    # -- steps -------------------------------------------------------------------------

    def _runner(self) -> _LoopThread:
        shared = self._shared
        runner = shared.runner
        if runner is None or runner.pid != os.getpid():
            with shared.lock:
                runner = shared.runner
                if runner is None or runner.pid != os.getpid():
                    runner = shared.runner = _LoopThread()
        return runner

    def _prepare(
        self,
        messages: Sequence[Message],
        model: ModelConfig,
        sample_index: int,
        purpose: str,
        params: Mapping[str, Any] | None,
    ) -> _Request:
        if model.is_builtin:
            raise PermanentLLMError(
                f"model {model.slug!r} is builtin ({model.model}); builtin players never call "
                "the gateway",
                model=model.model,
            )
        if not messages:
            raise PermanentLLMError(f"model {model.slug!r}: no messages to send", model=model.model)
        effective = dict(model.params)
        if params:
            effective.update(params)
        timeout = float(effective.pop("timeout", self.timeout_s))
        chars, images = _measure(messages)
        if images and not model.vision:
            raise PermanentLLMError(
                f"model {model.slug!r} is not marked as vision-capable but the messages hold "
                f"{images} image(s)",
                model=model.model,
            )
        request_hash = stable_hash(
            {
                "model": model.model,
                "api_base": model.api_base or "",
                "messages": messages,
                "params": {k: v for k, v in effective.items() if k not in _CALL_PARAMS},
                "sample_index": sample_index,
            }
        )
        max_out = effective.get("max_tokens") or effective.get("max_completion_tokens") or 0
        return _Request(
            request_hash=request_hash,
            model=model,
            messages=messages,
            params=effective,
            timeout=timeout,
            sample_index=sample_index,
            purpose=purpose,
            est_tokens=chars // 4 + 800 * images + int(max_out),
            started=time.perf_counter(),
            prompt_tokens_est=chars // 4 + 800 * images,
        )

    def _from_cache(self, request: _Request) -> Completion | None:
        if self.cache is None:
            return None
        stored = self.cache.get(request.request_hash)
        if stored is None:
            return None
        text = str(stored.get("text", ""))
        completion = Completion(
            text=text,
            request_hash=request.request_hash,
            model=request.model.model,
            input_tokens=int(stored.get("input_tokens", 0)),
            output_tokens=int(stored.get("output_tokens", 0)),
            reasoning_tokens=int(stored.get("reasoning_tokens", 0)),
            cost_usd=0.0,
            latency_s=0.0,
            cached=True,
            attempts=0,
            finish_reason=stored.get("finish_reason"),
        )
        if self.on_call is not None:
            self.on_call(
                CallRecord(
                    request_hash=request.request_hash,
                    model=request.model.model,
                    model_slug=request.model.slug,
                    purpose=request.purpose,
                    sample_index=request.sample_index,
                    messages=bound_messages(request.messages),
                    reply=truncate(text, REPLY_LIMIT),
                    cost_usd=0.0,
                    cost_known=True,
                    total_s=time.perf_counter() - request.started,
                    cache_hit=True,
                    finish_reason=completion.finish_reason,
                )
            )
        return completion

    async def _attempt_loop(self, request: _Request) -> _Outcome:
        model = request.model
        outcome = _Outcome()
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
        limits, key = self._shared.limits, model.slug
        reasons: list[str] = []
        while True:
            outcome.attempts += 1
            retry_after: float | None = None
            try:
                if model.max_concurrency:
                    async with limits.slot(key, model.max_concurrency):
                        response = await self._send(request, kwargs, key, outcome)
                else:
                    response = await self._send(request, kwargs, key, outcome)
                self._read(response, outcome, model.model)
                # A provider (or a proxy) may echo the key in a successful reply: scrub it here,
                # before the text reaches the cache, the call log, the item and its pages.
                outcome.text = _scrub(outcome.text, api_key)
                outcome.retry_reasons = tuple(reasons)
                return outcome
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001  (classified below; unknown means permanent)
                permanent, name = _classify(exc)
                status = getattr(exc, "status_code", None)
                # the status goes in the text: the public sees only "provider returned 403"
                http = f" (HTTP {status})" if isinstance(status, int) else ""
                message = _scrub(f"{name}{http}: {exc}", api_key)
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
                retry_after = _retry_after(exc)
            await asyncio.sleep(self._backoff(outcome.attempts, retry_after))

    async def _send(
        self, request: _Request, kwargs: dict[str, Any], key: str, outcome: _Outcome
    ) -> Any:
        """One request, once the limits allow it; its duration lands in outcome.latency_s
        (also when it fails, so a timed-out attempt shows its timeout)."""
        model = request.model
        ticket = await self._shared.limits.admit(
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
            await self._shared.limits.settle(
                key, ticket, estimated=request.est_tokens, actual=actual
            )
        return response

    def _read(self, response: Any, outcome: _Outcome, model_name: str) -> None:
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
        price = self._price(model_name)
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

    def _cost_of_timeouts(self, request: _Request, outcome: _Outcome) -> None:
        """What the timed-out attempts cost at least (their prompts, estimated from its
        length); unknown in full, since the output the provider generated never arrived."""
        price = self._price(request.model.model)
        n = len(outcome.timeouts or [])
        outcome.cost_usd = None if price is None else n * request.prompt_tokens_est * price[0]
        outcome.cost_known = False

    def _price(self, model_name: str) -> tuple[float, float] | None:
        """(input, output) USD per token from litellm's table, looked up once per model."""
        prices = self._shared.prices
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

    def _backoff(self, failed_attempts: int, retry_after: float | None) -> float:
        if retry_after is not None:
            # The provider said when; a little jitter keeps the workers from returning at once.
            return min(retry_after, self.max_retry_after_s) + random.uniform(
                0, min(self.backoff_base_s, 1.0)
            )
        ceiling = min(self.backoff_max_s, self.backoff_base_s * 2 ** (failed_attempts - 1))
        return random.uniform(0, ceiling)

    def _open_intent(self, request: _Request) -> Any:
        if self.on_send is None:
            return None
        model = request.model
        return self.on_send(
            CallRecord(
                request_hash=request.request_hash,
                model=model.model,
                model_slug=model.slug,
                purpose=request.purpose,
                sample_index=request.sample_index,
                messages=bound_messages(request.messages),
                reply="",
                cost_usd=None,
                cost_known=False,
                attempts=1,
            )
        )

    def _finish(self, request: _Request, outcome: _Outcome, intent: Any = None) -> Completion:
        model = request.model
        error = outcome.error
        if error is None and self.cache is not None:
            self.cache.put(
                request.request_hash,
                model.model,
                {
                    "text": outcome.text,
                    "finish_reason": outcome.finish_reason,
                    "input_tokens": outcome.input_tokens,
                    "output_tokens": outcome.output_tokens,
                    "reasoning_tokens": outcome.reasoning_tokens,
                    "cost_usd": outcome.cost_usd,
                    "model": model.model,
                },
            )
        if self.on_call is not None:
            self.on_call(
                CallRecord(
                    request_hash=request.request_hash,
                    model=model.model,
                    model_slug=model.slug,
                    purpose=request.purpose,
                    sample_index=request.sample_index,
                    messages=bound_messages(request.messages),
                    reply=truncate(outcome.text, REPLY_LIMIT),
                    input_tokens=outcome.input_tokens,
                    output_tokens=outcome.output_tokens,
                    reasoning_tokens=outcome.reasoning_tokens,
                    cost_usd=outcome.cost_usd,
                    cost_known=outcome.cost_known,
                    latency_s=outcome.latency_s,
                    total_s=time.perf_counter() - request.started,
                    attempts=outcome.attempts,
                    retries=max(0, outcome.attempts - 1),
                    retry_reasons=outcome.retry_reasons,
                    error_class=error.error_class if error else "",
                    error_message=str(error) if error else "",
                    cache_hit=False,
                    finish_reason=outcome.finish_reason,
                    intent=intent,
                )
            )
        if error is not None:
            raise error
        return Completion(
            text=outcome.text,
            request_hash=request.request_hash,
            model=model.model,
            input_tokens=outcome.input_tokens,
            output_tokens=outcome.output_tokens,
            reasoning_tokens=outcome.reasoning_tokens,
            cost_usd=outcome.cost_usd,
            latency_s=outcome.latency_s,
            cached=False,
            attempts=outcome.attempts,
            finish_reason=outcome.finish_reason,
        )


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


def _measure(messages: Sequence[Message]) -> tuple[int, int]:
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


def _classify(exc: BaseException) -> tuple[bool, str]:
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


def _retry_after(exc: BaseException) -> float | None:
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


def _scrub(text: str, api_key: str | None) -> str:
    """The text with every occurrence of the API key replaced. Keys shorter than 8 characters
    are not real provider keys (and would blank ordinary words), so they are left alone."""
    if api_key and len(api_key) >= 8 and api_key in text:
        text = text.replace(api_key, "***")
    return text
