"""What the fake OpenAI-compatible server (tests.fakes.openai_server) answers with: scripted
replies and faults, rules that produce replies from a request, and the fingerprint of a
request's messages that its ``GET /calls`` log carries."""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

FaultKind = Literal[
    "rate_limit", "server_error", "timeout", "malformed", "truncated", "empty", "empty_body"
]
FAULT_KINDS: tuple[FaultKind, ...] = (
    "rate_limit",
    "server_error",
    "timeout",
    "malformed",
    "truncated",
    "empty",
    "empty_body",
)
# The faults injected at random when fault_rate > 0 (timeouts are opt-in: they cost the
# client a whole timeout each).
DEFAULT_RANDOM_FAULTS: tuple[FaultKind, ...] = (
    "rate_limit",
    "server_error",
    "malformed",
    "truncated",
    "empty",
    "empty_body",
)


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``text`` is the assistant content (or the error message)."""

    text: str = ""
    fault: FaultKind | None = None
    status: int | None = None  # a non-200 status makes this an OpenAI-style error reply
    error_code: str | None = None  # e.g. "invalid_api_key", "context_length_exceeded"
    retry_after: str | None = None  # for rate_limit faults; None uses the server default
    prompt_tokens: int | None = None  # None: estimated from the request text
    completion_tokens: int | None = None  # None: estimated from the reply text
    reasoning_tokens: int | None = None  # None: the server default
    finish_reason: str = "stop"
    latency: float | None = None  # None: the server default


def fault(kind: FaultKind, *, retry_after: str | None = None) -> Reply:
    """A scripted fault, e.g. ``fault("rate_limit", retry_after="1")``."""
    if kind not in FAULT_KINDS:
        raise ValueError(f"unknown fault kind {kind!r}; expected one of {FAULT_KINDS}")
    return Reply(fault=kind, retry_after=retry_after)


def error(status: int, message: str, code: str | None = None) -> Reply:
    """A scripted permanent error reply (401, 400, 404, ...)."""
    return Reply(text=message, status=status, error_code=code)


Rule = Callable[[dict[str, Any]], "str | Reply"]


def load_rule(dotted: str) -> Rule:
    """Import ``package.module:function`` (or ``package.module.function``)."""
    module_name, sep, attr = dotted.partition(":")
    if not sep:
        module_name, _, attr = dotted.rpartition(".")
    if not module_name or not attr:
        raise ValueError(f"rule {dotted!r} is not of the form package.module:function")
    rule = getattr(importlib.import_module(module_name), attr, None)
    if not callable(rule):
        raise TypeError(f"rule {dotted!r}: {attr!r} is not a callable in {module_name!r}")
    return rule


def default_rule(request: dict[str, Any]) -> str:
    """Echo the start of the last user message, so a reply is traceable to its prompt."""
    for message in reversed(request.get("messages") or []):
        if message.get("role") == "user":
            return "fake reply to: " + _text_of(message.get("content"))[:200]
    return "fake reply"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def messages_fingerprint(messages: Any) -> str:
    """A digest of the roles and texts of a request's messages: what a client that stored the
    messages it sent can compute again to find its calls in ``GET /calls``."""
    digest = hashlib.sha1()
    for message in messages or []:
        if isinstance(message, dict):
            digest.update(f"{message.get('role', '')}\x1f".encode())
            digest.update(_text_of(message.get("content")).encode("utf-8", "replace"))
        digest.update(b"\x1e")
    return digest.hexdigest()[:20]
