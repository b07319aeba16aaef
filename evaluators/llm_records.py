"""What the gateway writes down about a call: the cache entry of a reply, the call-log records
(intent before sending, outcome after, cache hits) and the ``Completion`` handed back.

A reply exists in one shape, the cache entry (``entry_of``); a ``Completion`` is always built
from an entry (``completion_of``), whether the reply was just received, read from the cache,
or answered by a call service.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from evaluators.base import Completion
from evaluators.llm_attempts import Outcome, Request
from evaluators.llm_types import REPLY_LIMIT, CallRecord, bound_messages, truncate


def entry_of(request: Request, outcome: Outcome) -> dict[str, Any]:
    """The cache entry of a successful outcome."""
    return {
        "text": outcome.text,
        "finish_reason": outcome.finish_reason,
        "input_tokens": outcome.input_tokens,
        "output_tokens": outcome.output_tokens,
        "reasoning_tokens": outcome.reasoning_tokens,
        "cost_usd": outcome.cost_usd,
        "model": request.model.model,
    }


def completion_of(
    request_hash: str,
    model: str,
    entry: Mapping[str, Any],
    *,
    cached: bool,
    latency_s: float = 0.0,
    attempts: int = 0,
) -> Completion:
    """The Completion of a stored reply. A cached one cost nothing this time."""
    cost = entry.get("cost_usd")
    return Completion(
        text=str(entry.get("text", "")),
        request_hash=request_hash,
        model=model,
        input_tokens=int(entry.get("input_tokens", 0) or 0),
        output_tokens=int(entry.get("output_tokens", 0) or 0),
        reasoning_tokens=int(entry.get("reasoning_tokens", 0) or 0),
        cost_usd=0.0 if cached else (None if cost is None else float(cost)),
        latency_s=0.0 if cached else latency_s,
        cached=cached,
        attempts=0 if cached else attempts,
        finish_reason=entry.get("finish_reason"),
    )


def _request_fields(request: Request) -> dict[str, Any]:
    """What every record of a call says about the request itself."""
    return {
        "request_hash": request.request_hash,
        "model": request.model.model,
        "model_slug": request.model.slug,
        "purpose": request.purpose,
        "sample_index": request.sample_index,
        "messages": bound_messages(request.messages),
    }


def intent_record(request: Request) -> CallRecord:
    """The call as known before it is sent: no reply, cost unknown, one attempt."""
    return CallRecord(
        **_request_fields(request),
        reply="",
        cost_usd=None,
        cost_known=False,
        attempts=1,
    )


def hit_record(request: Request, entry: Mapping[str, Any]) -> CallRecord:
    """A call answered from a stored reply: nothing sent, nothing spent."""
    return CallRecord(
        **_request_fields(request),
        reply=truncate(str(entry.get("text", "")), REPLY_LIMIT),
        cost_usd=0.0,
        cost_known=True,
        total_s=time.perf_counter() - request.started,
        cache_hit=True,
        finish_reason=entry.get("finish_reason"),
    )


def outcome_record(request: Request, outcome: Outcome, intent: Any = None) -> CallRecord:
    """A call that was sent: its reply or final error, and every attempt's cost."""
    error = outcome.error
    return CallRecord(
        **_request_fields(request),
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
