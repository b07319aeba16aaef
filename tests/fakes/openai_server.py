"""A fake OpenAI-compatible chat-completions server on real HTTP, for tests and benchmarks.

The gateway is tested through litellm over a real socket, so this server speaks just
enough HTTP/1.1 (keep-alive, Content-Length bodies) to serve ``POST /v1/chat/completions``
and ``POST /chat/completions``. It is a raw asyncio server rather than a framework so it
can misbehave on purpose (a truncated body, a hung request) and stay far from being the
bottleneck of a throughput benchmark.

What a request gets, in order of precedence:

1. the next item of the *script* (``server.script("text", fault("rate_limit"), ...)``),
2. otherwise a random transient fault, with probability ``fault_rate``,
3. otherwise the *rule* ``rule(request_json) -> str | Reply``, or a default echo reply.

Fault kinds: ``rate_limit`` (429 with Retry-After), ``server_error`` (500), ``timeout``
(the request hangs for ``hang_s`` and the connection is then dropped), ``malformed``
(200 with a body that is not JSON), ``truncated`` (200 whose body stops short of its
Content-Length), ``empty`` (200 with an empty assistant message), ``empty_body`` (200 with
no body at all). A Reply with ``status`` set (e.g. 401, 400) is a permanent error.

Runnable on its own, for benchmarks and the demo::

    python -m tests.fakes.openai_server --port 8765 --latency 0.2 --fault-rate 0.3 \
        --rule tests.fakes.example_rules:shout

``GET /stats`` returns the counters as JSON, ``POST /reset`` clears them (so a benchmark
can read what a server in another process served). ``GET /calls`` returns, for each answered
completion in arrival order, the latency the server waited and a fingerprint of its messages
(``messages_fingerprint``), from which bench/campaign.py computes its schedule bound. Only the standard library is used,
so the subprocess starts fast.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.replies import (  # noqa: F401  (re-exported: tests import them from here)
    DEFAULT_RANDOM_FAULTS,
    FAULT_KINDS,
    FaultKind,
    Reply,
    Rule,
    _text_of,
    default_rule,
    error,
    fault,
    load_rule,
    messages_fingerprint,
)

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    411: "Length Required",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


def _estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


@dataclass
class Counters:
    """What the server served since the last reset (read them from any thread)."""

    requests: int = 0  # chat-completion requests received
    successful: int = 0  # 200 replies with a well-formed completion
    errors: int = 0  # scripted non-200 (permanent) error replies
    faults: dict[str, int] = field(default_factory=dict)  # injected faults, by kind
    in_flight: int = 0
    max_in_flight: int = 0
    # Recorded only when record_requests is on (the default, off on the command line):
    request_times: list[float] = field(default_factory=list)  # time.time() at arrival
    requests_json: list[dict[str, Any]] = field(default_factory=list)  # request bodies
    authorizations: list[str] = field(default_factory=list)  # Authorization headers seen
    # Always kept (a float and a short digest per answered completion, in arrival order):
    latencies: list[float] = field(default_factory=list)  # seconds the server waited
    fingerprints: list[str] = field(default_factory=list)  # messages_fingerprint(messages)

    @property
    def faults_total(self) -> int:
        return sum(self.faults.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "successful": self.successful,
            "errors": self.errors,
            "faults": dict(self.faults),
            "faults_total": self.faults_total,
            "in_flight": self.in_flight,
            "max_in_flight": self.max_in_flight,
        }


class FakeOpenAIServer:
    """The server. ``start()`` runs it in a daemon thread; ``serve_forever()`` in the caller."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        latency: float = 0.0,
        fault_rate: float = 0.0,
        fault_kinds: Iterable[FaultKind] = DEFAULT_RANDOM_FAULTS,
        retry_after: str = "1",
        hang_s: float = 30.0,
        reasoning_tokens: int = 0,
        rule: Rule | None = None,
        seed: int | None = None,
        record_requests: bool = True,
    ) -> None:
        self.host = host
        self.port = port
        self._defaults: dict[str, Any] = {
            "latency": latency,
            "fault_rate": fault_rate,
            "fault_kinds": tuple(fault_kinds),
            "retry_after": retry_after,
            "hang_s": hang_s,
            "reasoning_tokens": reasoning_tokens,
            "rule": rule,
            "record_requests": record_requests,
        }
        self._seed = seed
        self._ids = itertools.count(1)
        self._queue: deque[str | Reply] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._writers: set[asyncio.StreamWriter] = set()
        self.reset()

    # -- configuration, per test -------------------------------------------------------

    def reset(self) -> None:
        """Back to the constructor's settings, an empty script and zero counters."""
        for name, value in self._defaults.items():
            setattr(self, name, value)
        self.latency: float
        self.fault_rate: float
        self.fault_kinds: tuple[FaultKind, ...]
        self.retry_after: str
        self.hang_s: float
        self.reasoning_tokens: int
        self.rule: Rule | None
        self.record_requests: bool
        self._queue.clear()
        self._rng = random.Random(self._seed)
        self.counters = Counters()

    def reset_counters(self) -> None:
        """Zero the counters only (keeps the script, rule and fault settings)."""
        self.counters = Counters()

    def configure(self, **settings: Any) -> None:
        """Change settings for the current test: latency, fault_rate, fault_kinds, ..."""
        for name, value in settings.items():
            if name not in self._defaults:
                raise TypeError(f"unknown fake server setting {name!r}")
            if name == "fault_kinds":
                value = tuple(value)
                for kind in value:
                    if kind not in FAULT_KINDS:
                        raise ValueError(f"unknown fault kind {kind!r}")
            setattr(self, name, value)

    def script(self, *replies: str | Reply) -> None:
        """Queue replies served in order before any random fault or rule applies."""
        for reply in replies:
            if not isinstance(reply, (str, Reply)):
                raise TypeError(f"script item must be str or Reply, got {type(reply).__name__}")
            self._queue.append(reply)

    @property
    def scripted_left(self) -> int:
        return len(self._queue)

    @property
    def base_url(self) -> str:
        """What to put in ModelConfig.api_base."""
        return f"http://{self.host}:{self.port}/v1"

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        if self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._run_thread, name="fake-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("fake OpenAI server did not start within 10 s")
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(self._shutdown)
        thread.join(10)
        self._thread = None

    def _run_thread(self) -> None:
        asyncio.run(self._serve())

    def serve_forever(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        self._server = await asyncio.start_server(
            self._handle, self.host, self.port, backlog=1024, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        async with self._server:
            await self._stopped.wait()
            # Wake hung handlers (timeout faults) and idle keep-alive connections so every
            # handler returns on its own instead of being cancelled by the closing loop.
            for writer in list(self._writers):
                writer.transport.abort()
            deadline = time.monotonic() + 2.0
            while self._writers and time.monotonic() < deadline:
                await asyncio.sleep(0.01)

    def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        self._stopped.set()

    # -- HTTP --------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
                headers = {}
                for line in lines[1:]:
                    name, sep, value = line.partition(":")
                    if sep:
                        headers[name.strip().lower()] = value.strip()
                length = headers.get("content-length")
                if length is None and method == "POST":
                    await self._send(writer, 411, {"error": {"message": "Content-Length required"}})
                    return
                body = await reader.readexactly(int(length)) if length else b""
                keep_alive = await self._dispatch(
                    method, path.split("?", 1)[0], headers, body, writer
                )
                if not keep_alive or headers.get("connection", "").lower() == "close":
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            self._writers.discard(writer)
            try:
                writer.close()
            except RuntimeError:  # loop already closing at shutdown
                pass

    async def _dispatch(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
        writer: asyncio.StreamWriter,
    ) -> bool:
        if method == "GET" and path in ("/health", "/v1/health"):
            await self._send(writer, 200, {"ok": True})
            return True
        if method == "GET" and path == "/stats":
            await self._send(writer, 200, self.counters.as_dict())
            return True
        if method == "GET" and path == "/calls":
            c = self.counters
            await self._send(
                writer, 200, {"latencies": c.latencies, "fingerprints": c.fingerprints}
            )
            return True
        if method == "POST" and path == "/reset":
            self.reset()
            await self._send(writer, 200, {"ok": True})
            return True
        if method != "POST" or not path.endswith("/chat/completions"):
            await self._send(writer, 404, {"error": {"message": f"no route {method} {path}"}})
            return True
        try:
            request = json.loads(body)
        except ValueError:
            await self._send(writer, 400, {"error": {"message": "request body is not JSON"}})
            return True
        c = self.counters
        c.requests += 1
        if self.record_requests:
            c.request_times.append(time.time())
            c.requests_json.append(request)
            c.authorizations.append(headers.get("authorization", ""))
        c.in_flight += 1
        c.max_in_flight = max(c.max_in_flight, c.in_flight)
        try:
            return await self._answer(request, writer)
        finally:
            c.in_flight -= 1

    def _choose(self, request: dict[str, Any]) -> Reply:
        if self._queue:
            item = self._queue.popleft()
            return Reply(text=item) if isinstance(item, str) else item
        if self.fault_rate > 0 and self.fault_kinds and self._rng.random() < self.fault_rate:
            return Reply(fault=self._rng.choice(self.fault_kinds))
        produced = (self.rule or default_rule)(request)
        return Reply(text=produced) if isinstance(produced, str) else produced

    async def _answer(self, request: dict[str, Any], writer: asyncio.StreamWriter) -> bool:
        reply = self._choose(request)
        latency = self.latency if reply.latency is None else reply.latency
        if reply.fault is not None:
            self.counters.faults[reply.fault] = self.counters.faults.get(reply.fault, 0) + 1
            return await self._send_fault(reply, latency, writer)
        if reply.status is None or reply.status == 200:  # in arrival order, before the wait
            self.counters.latencies.append(latency)
            self.counters.fingerprints.append(messages_fingerprint(request.get("messages")))
        if latency > 0:
            await asyncio.sleep(latency)
        if reply.status is not None and reply.status != 200:
            self.counters.errors += 1
            await self._send(
                writer,
                reply.status,
                {
                    "error": {
                        "message": reply.text,
                        "type": "invalid_request_error",
                        "param": None,
                        "code": reply.error_code,
                    }
                },
            )
            return True
        self.counters.successful += 1
        await self._send(writer, 200, self._completion(request, reply))
        return True

    def _completion(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        prompt_text = "".join(_text_of(m.get("content")) for m in request.get("messages") or [])
        prompt = (
            reply.prompt_tokens
            if reply.prompt_tokens is not None
            else (_estimate_tokens(prompt_text))
        )
        reasoning = (
            self.reasoning_tokens if reply.reasoning_tokens is None else reply.reasoning_tokens
        )
        completion = (
            reply.completion_tokens
            if reply.completion_tokens is not None
            else (_estimate_tokens(reply.text) + reasoning)
        )
        usage: dict[str, Any] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        if reasoning:
            usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
        return {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": reply.finish_reason,
                    "message": {"role": "assistant", "content": reply.text},
                }
            ],
            "usage": usage,
        }

    async def _send_fault(self, reply: Reply, latency: float, writer: asyncio.StreamWriter) -> bool:
        kind = reply.fault
        if kind == "timeout":
            try:  # hang, but wake at shutdown
                await asyncio.wait_for(self._stopped.wait(), self.hang_s)
            except TimeoutError:
                pass
            return False  # drop the connection without an answer
        if latency > 0:
            await asyncio.sleep(latency)
        if kind == "rate_limit":
            retry_after = reply.retry_after if reply.retry_after is not None else self.retry_after
            await self._send(
                writer,
                429,
                {
                    "error": {
                        "message": "Rate limit reached (fake)",
                        "type": "requests",
                        "code": "rate_limit",
                    }
                },
                extra_headers={"Retry-After": retry_after} if retry_after else None,
            )
            return True
        if kind == "server_error":
            await self._send(
                writer, 500, {"error": {"message": "internal error (fake)", "type": "server_error"}}
            )
            return True
        if kind == "malformed":
            await self._send_raw(writer, 200, b'{"id": "chatcmpl-broken", "choices": [{"ind')
            return True
        if kind == "truncated":
            full = json.dumps(self._completion({}, Reply(text="this reply is cut"))).encode()
            head = self._head(200, len(full), None)
            writer.write(head + full[: len(full) // 2])
            await writer.drain()
            return False  # close mid-body: the client sees fewer bytes than announced
        if kind == "empty":
            await self._send(writer, 200, self._completion({}, Reply(text="")))
            return True
        if kind == "empty_body":
            await self._send_raw(writer, 200, b"")
            return True
        raise AssertionError(f"unhandled fault {kind}")

    @staticmethod
    def _head(status: int, length: int, extra_headers: dict[str, str] | None) -> bytes:
        lines = [
            f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}",
            "Content-Type: application/json",
            f"Content-Length: {length}",
        ]
        for name, value in (extra_headers or {}).items():
            lines.append(f"{name}: {value}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _send_raw(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        body: bytes,
        extra_headers: dict[str, str] | None = None,
    ) -> None:
        writer.write(self._head(status, len(body), extra_headers) + body)
        await writer.drain()

    async def _send(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        payload: Any,
        extra_headers: dict[str, str] | None = None,
    ) -> None:
        await self._send_raw(writer, status, json.dumps(payload).encode("utf-8"), extra_headers)

    # -- helpers for tests ---------------------------------------------------------------

    def model_config(
        self, slug: str = "fake-model", model: str = "openai/fake-model", **fields: Any
    ) -> Any:
        """A ModelConfig pointing at this server, with its key in FAKE_KEY_ENV."""
        from evaluators.base import ModelConfig

        fields.setdefault("api_base", self.base_url)
        fields.setdefault("api_key_env", FAKE_KEY_ENV)
        return ModelConfig(slug=slug, model=model, **fields)


FAKE_KEY_ENV = "PODIUM_FAKE_LLM_KEY"
FAKE_KEY_VALUE = "sk-fake-podium-0123456789abcdef"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fake OpenAI-compatible chat server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per reply")
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument(
        "--faults",
        default=",".join(DEFAULT_RANDOM_FAULTS),
        help=f"comma-separated kinds among {','.join(FAULT_KINDS)}",
    )
    parser.add_argument("--retry-after", default="1")
    parser.add_argument("--hang", type=float, default=30.0, help="seconds a timeout fault hangs")
    parser.add_argument("--reasoning-tokens", type=int, default=0)
    parser.add_argument("--rule", default=None, help="package.module:function producing replies")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--record", action="store_true", help="keep request bodies in memory")
    args = parser.parse_args(argv)
    kinds = tuple(k for k in args.faults.split(",") if k)
    for kind in kinds:
        if kind not in FAULT_KINDS:
            parser.error(f"--faults: unknown kind {kind!r}")
    server = FakeOpenAIServer(
        args.host,
        args.port,
        latency=args.latency,
        fault_rate=args.fault_rate,
        fault_kinds=kinds,
        retry_after=args.retry_after,
        hang_s=args.hang,
        reasoning_tokens=args.reasoning_tokens,
        rule=load_rule(args.rule) if args.rule else None,
        seed=args.seed,
        record_requests=args.record,
    )
    print(f"fake OpenAI server on http://{args.host}:{args.port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
