"""The client side of the per-host call service, and the wire format both sides speak.

A worker's gateway hands every request that the response cache cannot answer to the call
service of its host (``manage.py podium_callservice``), a separate process that sends it,
stores the reply and only then answers. A worker killed mid-call therefore loses nothing that
was paid for: the reply is stored, and the item's next attempt reads it back.

One connection carries one call: a JSON line with the request (the model entry with the NAME
of its key variable, never a key), then a JSON line with the answer. Addresses:
``unix:/path/to/socket`` (or an absolute path) or ``host:port``.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from evaluators.base import ModelConfig
from evaluators.llm_types import LLMError, PermanentLLMError, TransientLLMError

PROTOCOL = 1
# A request carries its messages (images inline as data URLs): bounded, but generously.
MAX_LINE = 64 * 1024 * 1024
CONNECT_TIMEOUT_S = 5.0

Source = str  # "sent" (this call was sent now), "joined" (another caller's), "stored"


class CallServiceUnavailable(Exception):
    """The host's call service could not be reached, or went away before it answered.

    Not an LLMError (an evaluator that tolerates a failed model call must not swallow it): the
    worker gives the item back and it is tried again later, as after a database failure."""


def parse_address(address: str) -> tuple[int, Any]:
    """(socket family, socket address) of ``unix:/path``, ``/path`` or ``host:port``."""
    text = address.strip()
    if text.startswith("unix:"):
        text = text[len("unix:") :]
        if not text.startswith("/"):
            raise ValueError(f"call service address {address!r}: unix: needs an absolute path")
    if text.startswith("/"):
        return socket.AF_UNIX, text
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"call service address {address!r}: expected unix:/path/to/socket or host:port"
        )
    return socket.AF_INET6 if ":" in host else socket.AF_INET, (host.strip("[]"), int(port))


@dataclass(frozen=True)
class ServiceReply:
    """What the service answered: a stored reply (``entry``, as the response cache holds it) and
    where it came from, or the call's final error."""

    source: Source = "sent"
    entry: Mapping[str, Any] | None = None
    latency_s: float = 0.0
    attempts: int = 0
    error: LLMError | None = None
    # the service could not finish the call (its database or Redis failed): try again later
    unavailable: str = ""


def encode_request(
    *,
    request_hash: str,
    model: ModelConfig,
    messages: Any,
    params: Mapping[str, Any] | None,
    sample_index: int,
    purpose: str,
    tags: Mapping[str, Any],
) -> bytes:
    payload = {
        "v": PROTOCOL,
        "hash": request_hash,
        "model": {
            **{f.name: getattr(model, f.name) for f in fields(model)},
            "params": dict(model.params),
        },
        "messages": list(messages),
        "params": dict(params) if params else None,
        "sample_index": sample_index,
        "purpose": purpose,
        "tags": dict(tags),
    }
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


def decode_request(line: bytes) -> dict[str, Any]:
    """The request as a dict with a ModelConfig under "model"; ValueError names what is wrong."""
    try:
        payload = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"request is not a JSON line: {exc}") from None
    if not isinstance(payload, dict) or payload.get("v") != PROTOCOL:
        raise ValueError(f"request is not protocol {PROTOCOL} (worker and service differ?)")
    for field, kind in (("hash", str), ("model", dict), ("messages", list), ("tags", dict)):
        if not isinstance(payload.get(field), kind):
            raise ValueError(f"request field {field!r} is missing or not a {kind.__name__}")
    try:
        payload["model"] = ModelConfig(**payload["model"])
    except TypeError as exc:
        raise ValueError(f"request field 'model': {exc}") from None
    return payload


def encode_reply(reply: ServiceReply) -> bytes:
    error = reply.error
    payload: dict[str, Any] = {"source": reply.source}
    if reply.unavailable:
        payload["unavailable"] = reply.unavailable
    elif error is not None:
        payload["error"] = {
            "permanent": isinstance(error, PermanentLLMError),
            "message": str(error),
            "model": error.model,
            "attempts": error.attempts,
            "error_class": error.error_class,
        }
    else:
        payload.update(entry=dict(reply.entry or {}), latency_s=reply.latency_s)
        payload["attempts"] = reply.attempts
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


def decode_reply(line: bytes) -> ServiceReply:
    payload = json.loads(line)
    if payload.get("unavailable"):
        return ServiceReply(unavailable=str(payload["unavailable"]))
    error = payload.get("error")
    if error is not None:
        cls = PermanentLLMError if error.get("permanent") else TransientLLMError
        return ServiceReply(
            source=payload.get("source", "sent"),
            error=cls(
                str(error.get("message", "")),
                model=str(error.get("model", "")),
                attempts=int(error.get("attempts", 0)),
                error_class=str(error.get("error_class", "")),
            ),
        )
    return ServiceReply(
        source=payload.get("source", "sent"),
        entry=payload.get("entry") or {},
        latency_s=float(payload.get("latency_s", 0.0)),
        attempts=int(payload.get("attempts", 0)),
    )


class CallServiceClient:
    """Sends one call per connection to the service at ``address`` and waits for its answer."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.family, self.sockaddr = parse_address(address)

    def call(self, line: bytes, *, wait_s: float) -> ServiceReply:
        """Send an encoded request; wait at most ``wait_s`` for the answer (the service bounds
        every call by the same rules, so only a hung service takes that long)."""
        try:
            sock = socket.socket(self.family, socket.SOCK_STREAM)
        except OSError as exc:
            raise self._unavailable("cannot open a socket", exc) from exc
        with sock:
            try:
                sock.settimeout(CONNECT_TIMEOUT_S)
                sock.connect(self.sockaddr)
            except OSError as exc:
                raise self._unavailable("is unreachable", exc) from exc
            try:
                sock.sendall(line)
                sock.settimeout(wait_s)
                with sock.makefile("rb") as reader:
                    answer = reader.readline(MAX_LINE)
            except OSError as exc:
                raise self._unavailable("failed mid-call", exc) from exc
        if not answer.endswith(b"\n"):
            raise CallServiceUnavailable(
                f"call service at {self.address} closed the connection before answering (it "
                "was stopped or killed mid-call); the item is given back and tried again"
            )
        reply = decode_reply(answer)
        if reply.unavailable:
            raise CallServiceUnavailable(
                f"call service at {self.address}: {reply.unavailable}; the item is given back "
                "and tried again"
            )
        return reply

    def _unavailable(self, what: str, exc: OSError) -> CallServiceUnavailable:
        return CallServiceUnavailable(
            f"call service at {self.address} {what} ({type(exc).__name__}: {exc}); start "
            "`manage.py podium_callservice` on this host (PODIUM_CALL_SERVICE names its "
            "address); the item is given back and tried again"
        )
