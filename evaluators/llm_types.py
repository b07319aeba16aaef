"""Values and errors of the LLM gateway that do not need litellm.

The platform imports these (to write the call log, to catch errors) without paying
litellm's import time; ``evaluators.llm`` re-exports all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from evaluators.base import EvaluationError, Message

REPLY_LIMIT = 100_000  # characters of a reply kept in a CallRecord
TEXT_PART_LIMIT = 20_000  # characters kept per text part of a logged message
MESSAGES_TOTAL_LIMIT = 200_000  # characters of all logged message text together


class LLMError(EvaluationError):
    """A model call failed. Never carries an API key in its message."""

    def __init__(
        self, message: str, *, model: str = "", attempts: int = 0, error_class: str = ""
    ) -> None:
        super().__init__(message)
        self.model = model
        self.attempts = attempts
        self.error_class = error_class or type(self).__name__


class PermanentLLMError(LLMError):
    """Retrying cannot help: authentication, bad request, unknown model or provider,
    context too long, a missing key variable. Raised at the first occurrence."""


class TransientLLMError(LLMError):
    """Rate limits, 5xx, timeouts, connection errors or malformed replies persisted
    through every attempt."""


class ResponseCache(Protocol):
    """Where finished calls are kept, keyed by the request hash.

    ``put`` is called right after a successful call, before anything else happens, so a
    worker killed afterwards never pays for that call again.
    """

    def get(self, request_hash: str) -> dict[str, Any] | None: ...

    def put(self, request_hash: str, model: str, response: dict[str, Any]) -> None: ...


class InMemoryResponseCache:
    """A process-local ResponseCache for tests and benchmarks."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[str, dict[str, Any]]] = {}

    def get(self, request_hash: str) -> dict[str, Any] | None:
        entry = self._entries.get(request_hash)
        return None if entry is None else entry[1]

    def put(self, request_hash: str, model: str, response: dict[str, Any]) -> None:
        self._entries[request_hash] = (model, response)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True)
class CallRecord:
    """One call as the gateway saw it: a success, a cache hit, or a final failure.

    Token and cost fields are what this call spent: zero for a cache hit. ``messages``
    and ``reply`` are bounded (long text truncated, image data replaced by a placeholder).
    """

    request_hash: str
    model: str  # the litellm model string
    model_slug: str
    purpose: str
    sample_index: int
    messages: list[dict[str, Any]]
    reply: str
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = None
    cost_known: bool = True  # False when litellm has no price for the model
    latency_s: float = 0.0  # the last attempt's request time (also when it failed)
    total_s: float = 0.0  # from the call to its return, waits and retries included
    attempts: int = 0  # requests sent (0 for a cache hit)
    retries: int = 0  # attempts - 1, or 0
    retry_reasons: tuple[str, ...] = ()  # error class of each failed attempt, in order
    error_class: str = ""
    error_message: str = ""
    cache_hit: bool = False
    finish_reason: str | None = None
    intent: Any = None  # what the gateway's on_send returned for this call (e.g. a row id)

    @property
    def ok(self) -> bool:
        return not self.error_class


def truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n…[truncated {len(text) - limit} characters]"


def bound_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """A copy of ``messages`` small enough to log: long text cut, images as placeholders."""
    budget = MESSAGES_TOTAL_LIMIT
    out: list[dict[str, Any]] = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            bounded: Any = truncate(content, max(0, min(TEXT_PART_LIMIT, budget)))
            budget -= len(content)
        elif isinstance(content, list):
            bounded = []
            for part in content:
                if not isinstance(part, dict):
                    bounded.append(str(part)[:200])
                elif part.get("type") == "text":
                    text = str(part.get("text", ""))
                    bounded.append(
                        {
                            "type": "text",
                            "text": truncate(text, max(0, min(TEXT_PART_LIMIT, budget))),
                        }
                    )
                    budget -= len(text)
                elif part.get("type") == "image_url":
                    bounded.append(
                        {"type": "image_url", "image_url": {"url": image_placeholder(part)}}
                    )
                else:
                    bounded.append({"type": str(part.get("type", "?"))})
        else:
            bounded = content
        entry = {k: v for k, v in message.items() if k != "content"}
        entry["content"] = bounded
        out.append(entry)
    return out


def image_placeholder(part: dict[str, Any]) -> str:
    image = part.get("image_url")
    url = image.get("url", "") if isinstance(image, dict) else str(image or "")
    if url.startswith("data:"):
        mime = url[5:].split(";", 1)[0] or "image"
        return f"[image data omitted: {mime}, {len(url)} characters]"
    return truncate(url, 500)  # a remote URL is small and worth keeping
