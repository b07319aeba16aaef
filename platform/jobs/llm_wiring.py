"""Connects the pure LLM gateway to the database: the response cache lives in CachedResponse,
every call outcome becomes an LLMCall row tagged with the run and item being evaluated.

``gateway()`` is a worker's: with PODIUM_CALL_SERVICE it reads the cache itself and hands every
miss to the host's call service. ``sending_gateway()`` is the one that sends (the call
service's, or a worker's without a service): it opens an intent row before sending and stores a
reply, its call-log row and the intent's closing in one transaction (``store_reply``)."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction

from jobs.dbconn import release_connection
from jobs.models import CachedResponse, LLMCall

_current = threading.local()
log = logging.getLogger(__name__)
T = TypeVar("T")

# A reply that was paid for is worth far more than a few seconds: the cache and call-log writes
# ride out a dropped or restarting database before the item is given up (and the call re-sent).
WRITE_ATTEMPTS = 6
WRITE_BACKOFF_S = (0.1, 0.3, 1.0, 2.0, 4.0)


def _write_with_retry(what: str, write: Callable[[], T]) -> T:
    """Run a database write; on a dropped connection, reconnect and try again.

    Django never replaces a broken connection inside a task (it does so only between
    requests), so without the close() every retry would hit the same dead socket. Inside an
    atomic block a reconnect would silently lose the transaction, so there it is not retried.
    """
    for attempt in range(WRITE_ATTEMPTS):
        try:
            return write()
        except (OperationalError, InterfaceError):
            if connection.in_atomic_block or attempt == WRITE_ATTEMPTS - 1:
                raise
            log.warning(
                "%s: database connection lost, reconnecting (attempt %d)", what, attempt + 1
            )
            try:
                connection.close()
            except (OperationalError, InterfaceError):
                pass
            time.sleep(WRITE_BACKOFF_S[min(attempt, len(WRITE_BACKOFF_S) - 1)])
    raise AssertionError("unreachable")


# NUL and unpaired surrogates (what a lenient decoder leaves of invalid UTF-8) cannot be stored
# by PostgreSQL (text or jsonb): a reply holding one made the item fail after it was paid for.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> str:
    """Model text that any database can store: NUL and lone surrogates become U+FFFD."""
    return _UNSTORABLE.sub("\ufffd", text) if _UNSTORABLE.search(text) else text


def _storable_json(value: Any) -> Any:
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, list):
        return [_storable_json(v) for v in value]
    if isinstance(value, dict):
        return {storable(str(k)): _storable_json(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class CallScope:
    run_id: int | None
    item_id: int | None


def scope_set(scope: CallScope | None) -> None:
    _current.scope = scope


def _scope() -> CallScope:
    return getattr(_current, "scope", None) or CallScope(None, None)


def scope_tags() -> dict[str, int | None]:
    """This thread's scope as the call service receives it (to tag the rows it writes)."""
    scope = _scope()
    return {"run_id": scope.run_id, "item_id": scope.item_id}


def scope_from_tags(tags: dict[str, Any]) -> CallScope:
    def as_id(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return CallScope(as_id(tags.get("run_id")), as_id(tags.get("item_id")))


class DatabaseResponseCache:
    """Shared by every worker on every host through the database, and survives Redis restarts."""

    def get(self, request_hash: str) -> dict[str, Any] | None:
        row = _write_with_retry(
            "response cache read",
            lambda: (
                CachedResponse.objects.filter(pk=request_hash)
                .values_list("response", flat=True)
                .first()
            ),
        )
        if row is None:
            release_connection()  # a miss is followed by the wait on the model: free the connection
        return row

    def put(self, request_hash: str, model: str, response: dict[str, Any]) -> None:
        stored = _storable_json(response)

        def write() -> None:
            # one INSERT ... ON CONFLICT DO NOTHING (get_or_create took a read, a transaction
            # and the insert): another worker that stored the same call first keeps its copy,
            # either will do
            CachedResponse.objects.bulk_create(
                [CachedResponse(request_hash=request_hash, model=model[:200], response=stored)],
                ignore_conflicts=True,
            )

        _write_with_retry("response cache write", write)


INTENT_CLASS = "InFlight"
INTENT_MESSAGE = "sent to the provider; no reply was recorded (the worker stopped mid-call)"


def open_intent(record) -> int | None:
    """Before a call is sent: a call-log row saying so. Closed (overwritten) by log_call when
    the reply or the final error arrives; left open when the worker dies mid-call, so a
    request the provider may have billed is still counted (cost unknown) in the run's costs."""
    scope = _scope()
    row = _write_with_retry(
        "call intent write",
        lambda: LLMCall.objects.create(
            run_id=scope.run_id,
            item_id=scope.item_id,
            purpose=record.purpose,
            request_hash=record.request_hash,
            model=record.model[:200],
            messages=_storable_json(record.messages),
            sample_index=record.sample_index,
            cost_known=False,
            attempts=1,
            error_class=INTENT_CLASS,
            error_message=INTENT_MESSAGE,
        ),
    )
    # the wait on the model comes next: give the pooled connection back, or every call in
    # flight holds one and a thread-pool worker stalls at PODIUM_DB_POOL_SIZE calls
    release_connection()
    return row.pk


def _call_fields(record) -> dict[str, Any]:
    """The call-log fields of a record, but its messages (see log_call)."""
    scope = _scope()
    return dict(
        run_id=scope.run_id,
        item_id=scope.item_id,
        purpose=record.purpose,
        request_hash=record.request_hash,
        model=record.model[:200],
        reply=storable(record.reply or ""),
        input_tokens=record.input_tokens or 0,
        output_tokens=record.output_tokens or 0,
        reasoning_tokens=record.reasoning_tokens or 0,
        cost_usd=record.cost_usd,
        cost_known=record.cost_known,
        latency_ms=int((record.latency_s or 0) * 1000),
        attempts=record.attempts,
        retries=record.retries,
        retry_reasons=list(record.retry_reasons),
        sample_index=record.sample_index,
        finish_reason=(record.finish_reason or "")[:40],
        total_ms=int((record.total_s or 0) * 1000),
        error_class=record.error_class or "",
        error_message=storable(record.error_message or ""),
        cache_hit=record.cache_hit,
    )


def log_call(record) -> None:
    fields = _call_fields(record)
    intent = getattr(record, "intent", None)

    def write() -> None:
        # the intent row holds the same messages already (open_intent wrote this call's): only
        # a new row needs them, which spares a JSON copy of the prompt per call
        if intent is not None and LLMCall.objects.filter(pk=intent).update(**fields):
            return
        LLMCall.objects.create(**fields, messages=_storable_json(record.messages))

    _write_with_retry("call log write", write)


def store_reply(request_hash: str, model: str, entry: dict[str, Any], record) -> None:
    """A paid reply: the cache entry and the call-log row (the intent row, closed) in one
    transaction, so the cost records never show a reply the cache lacks, or the reverse."""
    stored = _storable_json(entry)
    fields = _call_fields(record)
    intent = getattr(record, "intent", None)

    def write() -> None:
        with transaction.atomic():
            # INSERT ... ON CONFLICT DO NOTHING: a copy stored first by another sender stays
            CachedResponse.objects.bulk_create(
                [CachedResponse(request_hash=request_hash, model=model[:200], response=stored)],
                ignore_conflicts=True,
            )
            if intent is None or not LLMCall.objects.filter(pk=intent).update(**fields):
                LLMCall.objects.create(**fields, messages=_storable_json(record.messages))

    _write_with_retry("reply and call log write", write)


_gateways: dict[str, Any] = {}
_gateway_lock = threading.Lock()


def _build(kind: str):
    from evaluators.llm import Gateway

    common: dict[str, Any] = dict(
        cache=DatabaseResponseCache(),
        redis_url=settings.REDIS_URL,
        on_call=log_call,
        timeout_s=settings.PODIUM_LLM_TIMEOUT_SECONDS,
        max_attempts=settings.PODIUM_LLM_MAX_RETRIES + 1,
        backoff_base_s=settings.PODIUM_LLM_BACKOFF_BASE_SECONDS,
    )
    if kind == "worker" and settings.PODIUM_CALL_SERVICE:
        from evaluators.llm_service import CallServiceClient

        return Gateway(
            **common,
            service=CallServiceClient(settings.PODIUM_CALL_SERVICE),
            call_tags=scope_tags,
        )
    return Gateway(**common, on_send=open_intent, on_reply=store_reply)


def _one(kind: str):
    gw = _gateways.get(kind)
    if gw is None:
        with _gateway_lock:
            gw = _gateways.get(kind)
            if gw is None:
                gw = _gateways[kind] = _build(kind)
    return gw


def gateway():
    """One gateway per worker process (its rate limiter and HTTP pools are per process): through
    the host's call service when PODIUM_CALL_SERVICE names one, else sending itself."""
    return _one("worker")


def sending_gateway():
    """The gateway that sends calls itself: the call service's."""
    return _one("sending")
