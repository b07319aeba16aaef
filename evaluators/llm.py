"""The LLM gateway: the one place that calls language models (through litellm).

``Gateway.complete`` matches ``evaluators.base.Generate``; ``Gateway.acomplete`` is the
same call for asyncio code. Each call:

1. hashes (model string, api base, messages, effective parameters, sample index) and
   returns a cached response when there is one (``cached=True``, no cost, no request);
2. with a call service (``service=``, what workers use: see ``evaluators.llm_service``),
   hands the request to the host's service, which sends it, stores the reply and answers;
3. otherwise sends it from this process: opens the call's intent (``on_send``), runs the
   attempt loop (``evaluators.llm_attempts``: concurrency slot, rate window, retries), then
   stores a success in the cache and reports a ``CallRecord`` to ``on_call`` (also for cache
   hits and final failures); ``on_reply``, when given, does both in one write;
4. returns a ``Completion`` (built from the stored reply, ``evaluators.llm_records``).

The API key is read from ``os.environ[model.api_key_env]`` by the process that sends, at call
time, and is never logged, stored or put in an error message. Per-call CPU is what bounds
throughput (see DESIGN.md), so nothing here copies long messages, and litellm's callbacks and
logging are switched off.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from evaluators.base import Completion, Message, ModelConfig, Purpose, stable_hash
from evaluators.llm_attempts import (
    NO_KEY_PLACEHOLDER,
    AttemptLoop,
    LoopThread,
    Outcome,
    Request,
    measure,
    model_string_problem,
)
from evaluators.llm_limits import DEFAULT_SLOT_LEASE_S, Limits, LocalLimits, RedisLimits
from evaluators.llm_records import (
    completion_of,
    entry_of,
    hit_record,
    intent_record,
    outcome_record,
)
from evaluators.llm_service import CallServiceClient, CallServiceUnavailable, encode_request
from evaluators.llm_types import (
    CallRecord,
    InMemoryResponseCache,
    LLMError,
    PermanentLLMError,
    ResponseCache,
    TransientLLMError,
)

__all__ = [
    "NO_KEY_PLACEHOLDER",
    "CallRecord",
    "CallServiceUnavailable",
    "Gateway",
    "InMemoryResponseCache",
    "LLMError",
    "PermanentLLMError",
    "Request",
    "ResponseCache",
    "TransientLLMError",
    "model_string_problem",
]

# Parameters that steer the call rather than the output: kept out of the request hash.
_CALL_PARAMS = frozenset({"timeout"})

# on_reply(request_hash, model string, cache entry, call record): store a reply and its
# call-log record (closing the intent) together, before the caller is answered.
ReplyWriter = Callable[[str, str, dict[str, Any], CallRecord], None]


class _Shared:
    """State every view of one gateway shares: loop thread, limits, attempt rules."""

    def __init__(self, limits: Limits, attempts: AttemptLoop) -> None:
        self.limits = limits
        self.attempts = attempts
        self.lock = threading.Lock()
        self.runner: LoopThread | None = None


class Gateway:
    """Chat completions through litellm with cache, retries, limits and a call log.

    Retry, backoff and timeout rules: ``evaluators.llm_attempts.AttemptLoop``. ``rate_window_s``
    is the window over which ModelConfig.rpm / tpm are counted (60 s; tests shorten it). Limits
    are keyed by ModelConfig.slug; ``redis_prefix`` namespaces the Redis keys.

    ``service``: a ``CallServiceClient``; calls the cache cannot answer then go to that
    service, which sends, stores and logs them (``on_send``/``on_reply`` are its business, and
    ``call_tags()`` says what to tag its call-log rows with, e.g. the run and item).
    """

    def __init__(
        self,
        *,
        cache: ResponseCache | None = None,
        on_call: Callable[[CallRecord], None] | None = None,
        on_send: Callable[[CallRecord], Any] | None = None,
        on_reply: ReplyWriter | None = None,
        service: CallServiceClient | None = None,
        call_tags: Callable[[], Mapping[str, Any]] | None = None,
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
        self.cache = cache
        self.on_call = on_call
        # Called with the call's record (no reply yet) before the first request is sent; what it
        # returns comes back as CallRecord.intent, so the call log can close the row it opened.
        # A process killed mid-call leaves that row open: the call was sent, and maybe billed.
        self.on_send = on_send
        self.on_reply = on_reply
        self.service = service
        self.call_tags = call_tags
        self.timeout_s = timeout_s
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
        attempts = AttemptLoop(
            limits=limits,
            max_attempts=max_attempts,
            backoff_base_s=backoff_base_s,
            backoff_max_s=backoff_max_s,
            max_retry_after_s=max_retry_after_s,
            max_timeouts=max_timeouts,
            timeout_growth=timeout_growth,
            max_timeout_factor=max_timeout_factor,
        )
        self._shared = _Shared(limits, attempts)

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
        """Blocking call; safe from any thread. Raises PermanentLLMError/TransientLLMError,
        and CallServiceUnavailable when the host's call service cannot be reached."""
        request = self.prepare(messages, model, sample_index, purpose, params)
        hit = self._from_cache(request)
        if hit is not None:
            return hit
        if self.service is not None:
            return self._via_service(request)
        return self.send(request)

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
        request = self.prepare(messages, model, sample_index, purpose, params)
        hit = self._from_cache(request)
        if hit is not None:
            return hit
        if self.service is not None:
            return await asyncio.to_thread(self._via_service, request)
        intent = self._open_intent(request)
        outcome = await self._shared.attempts.run(request)
        return self._finish(request, outcome, intent)

    def send(self, request: Request) -> Completion:
        """Send a prepared request from this process (no cache lookup): intent, attempts,
        then the reply stored and logged before it is returned. What a call service runs."""
        intent = self._open_intent(request)
        outcome = self._runner().run(self._shared.attempts.run(request))
        return self._finish(request, outcome, intent)

    def longest(self, request: Request) -> float:
        """How long sending ``request`` may take at most, by the attempt rules."""
        return self._shared.attempts.longest(request)

    def close(self) -> None:
        """Stop the private loop thread (a later sync call starts a new one)."""
        with self._shared.lock:
            runner, self._shared.runner = self._shared.runner, None
        if runner is not None and runner.pid == os.getpid():
            runner.stop(self._shared.limits)

    # -- steps -------------------------------------------------------------------------

    def _runner(self) -> LoopThread:
        shared = self._shared
        runner = shared.runner
        if runner is None or runner.pid != os.getpid():
            with shared.lock:
                runner = shared.runner
                if runner is None or runner.pid != os.getpid():
                    runner = shared.runner = LoopThread()
        return runner

    def prepare(
        self,
        messages: Sequence[Message],
        model: ModelConfig,
        sample_index: int = 0,
        purpose: str = "model",
        params: Mapping[str, Any] | None = None,
    ) -> Request:
        """Check and hash a call. The hash is the response cache's key, so the sample index is
        in it: 8 samples of one prompt are 8 distinct requests."""
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
        chars, images = measure(messages)
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
        return Request(
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
            call_params=params,
        )

    def _from_cache(self, request: Request) -> Completion | None:
        if self.cache is None:
            return None
        stored = self.cache.get(request.request_hash)
        if stored is None:
            return None
        return self._answer_stored(request, stored)

    def _answer_stored(self, request: Request, entry: Mapping[str, Any]) -> Completion:
        """A reply somebody else paid for: logged as a cache hit, returned at no cost."""
        if self.on_call is not None:
            self.on_call(hit_record(request, entry))
        return completion_of(request.request_hash, request.model.model, entry, cached=True)

    def _via_service(self, request: Request) -> Completion:
        assert self.service is not None
        line = encode_request(
            request_hash=request.request_hash,
            model=request.model,
            messages=request.messages,
            params=request.call_params,
            sample_index=request.sample_index,
            purpose=request.purpose,
            tags=self.call_tags() if self.call_tags is not None else {},
        )
        # the service's own attempt rules bound the call; a margin for its queueing and writes
        reply = self.service.call(line, wait_s=self.longest(request) + 120.0)
        if reply.error is not None:
            raise reply.error  # the service logged it (and closed its intent row)
        entry = reply.entry or {}
        if reply.source == "sent":  # sent for this call: the service logged it with its cost
            return completion_of(
                request.request_hash,
                request.model.model,
                entry,
                cached=False,
                latency_s=reply.latency_s,
                attempts=reply.attempts,
            )
        return self._answer_stored(request, entry)

    def _open_intent(self, request: Request) -> Any:
        if self.on_send is None:
            return None
        return self.on_send(intent_record(request))

    def _finish(self, request: Request, outcome: Outcome, intent: Any = None) -> Completion:
        error = outcome.error
        record = outcome_record(request, outcome, intent)
        if error is not None:
            if self.on_call is not None:
                self.on_call(record)
            raise error
        entry = entry_of(request, outcome)
        if self.on_reply is not None:
            self.on_reply(request.request_hash, request.model.model, entry, record)
        else:
            if self.cache is not None:
                self.cache.put(request.request_hash, request.model.model, entry)
            if self.on_call is not None:
                self.on_call(record)
        return completion_of(
            request.request_hash,
            request.model.model,
            entry,
            cached=False,
            latency_s=outcome.latency_s,
            attempts=outcome.attempts,
        )
