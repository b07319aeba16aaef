"""The per-host call service: model calls that outlive the worker that asked for them.

A worker's gateway (jobs.llm_wiring.gateway) sends every call the response cache cannot answer
to this process over a Unix socket (or a TCP port on a private network), one connection per
call. For each request, keyed by its hash (the response cache's key, sample index included):

* the reply is in the store (CachedResponse): answered from there;
* the same request is being sent by this service: the caller joins that call;
* another service (another host) holds the request's Redis marker (SET NX with a TTL that is
  renewed while the call lives): the caller waits until the reply is stored or the marker lapses;
* otherwise this service takes the marker and sends it (jobs.llm_wiring.sending_gateway: intent
  row first, then the gateway's attempt loop, limits, retries, key scrubbing and timeouts), and
  stores the reply, the call-log row and the intent's closing in one transaction BEFORE it
  answers. A worker that died meanwhile does not matter: its item's next attempt, on any host,
  finds the reply stored or joins the call.

The API key is resolved here, from this process's environment, by the NAME of the variable the
request carries (the same environment as the workers of the host). SIGTERM stops accepting and
drains: every call in flight is finished and stored before the process exits. A SIGKILL of the
service itself loses the replies it was waiting for (their intent rows stay open, counted).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import socket
import socketserver
import threading
import time
import uuid
from collections import Counter
from typing import Any

from django.db import connections

from evaluators.llm_service import (
    MAX_LINE,
    ServiceReply,
    decode_request,
    encode_reply,
    parse_address,
)
from evaluators.llm_types import LLMError, PermanentLLMError
from jobs.llm_wiring import scope_from_tags, scope_set

log = logging.getLogger(__name__)

MARKER_TTL_S = 30.0  # a dead service's marker lapses within this; renewed every third of it
POLL_S = 0.5  # how often a caller waiting on another host's call looks for the stored reply

# Variables holding this deployment's own secrets: never sent to a provider, whatever a request
# names as its key variable (a model's key variable is validated at registration; this guards
# the socket, which any process of the host's user may write to).
_OWN_SECRETS = frozenset(
    {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "POSTGRES_PASSWORD", "REDIS_PASSWORD"}
)

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class _Call:
    """A request this service is sending; callers of the same hash wait on ``done``."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply = ServiceReply(unavailable="the call service stopped before answering")


class CallService:
    def __init__(
        self,
        *,
        gateway: Any,
        redis: Any,
        marker_prefix: str,
        marker_ttl_s: float = MARKER_TTL_S,
        poll_s: float = POLL_S,
    ) -> None:
        self.gateway = gateway
        self.redis = redis
        self.marker_prefix = marker_prefix
        self.marker_ttl_ms = int(marker_ttl_s * 1000)
        self.poll_s = poll_s
        self.lock = threading.Lock()
        self.inflight: dict[str, _Call] = {}
        self.markers: dict[str, str] = {}  # marker key -> our token, while we send
        self.counts: Counter[str] = Counter()
        self.stopped = threading.Event()
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._renewer = threading.Thread(target=self._renew_markers, name="markers", daemon=True)
        self._renewer.start()

    # -- one request ---------------------------------------------------------------------

    def handle(self, line: bytes) -> ServiceReply:
        try:
            payload = decode_request(line)
        except ValueError as exc:
            return ServiceReply(error=PermanentLLMError(f"call service: {exc}"))
        model = payload["model"]
        if model.api_key_env in _OWN_SECRETS:
            return ServiceReply(
                error=PermanentLLMError(
                    f"model {model.slug!r}: {model.api_key_env} is not an API key variable",
                    model=model.model,
                )
            )
        try:
            request = self.gateway.prepare(
                payload["messages"],
                model,
                int(payload.get("sample_index") or 0),
                str(payload.get("purpose") or "model"),
                payload.get("params"),
            )
        except LLMError as exc:
            return ServiceReply(error=exc)
        if request.request_hash != payload["hash"]:
            return ServiceReply(
                error=PermanentLLMError(
                    "call service: the request hashes differently here than in the worker "
                    "(different code versions on one host?)",
                    model=model.model,
                )
            )
        scope_set(scope_from_tags(payload["tags"]))
        try:
            return self._answer(request)
        finally:
            scope_set(None)

    def _answer(self, request: Any) -> ServiceReply:
        key = request.request_hash
        with self.lock:
            call = self.inflight.get(key)
            leader = call is None
            if call is None:
                call = self.inflight[key] = _Call()
        if not leader:
            call.done.wait()
            self.counts["joined"] += 1
            reply = call.reply
            return reply if reply.error or reply.unavailable else _as(reply, "joined")
        try:
            call.reply = self._lead(request)
        except Exception as exc:  # noqa: BLE001  (database or Redis beyond their retries)
            log.exception("call %s failed in the call service", key[:12])
            call.reply = ServiceReply(unavailable=f"{type(exc).__name__}: {exc}")
        finally:
            with self.lock:
                del self.inflight[key]
            call.done.set()
        return call.reply

    def _lead(self, request: Any) -> ServiceReply:
        key = request.request_hash
        marker = f"{self.marker_prefix}:{key}"
        cache = self.gateway.cache
        while True:
            stored = cache.get(key)
            if stored is not None:
                self.counts["stored"] += 1
                return ServiceReply(source="stored", entry=stored)
            token = uuid.uuid4().hex
            if self.redis.set(marker, token, nx=True, px=self.marker_ttl_ms):
                break
            time.sleep(self.poll_s)  # another host is sending it: wait for its reply or lapse
        with self.lock:
            self.markers[marker] = token
        try:
            # The previous holder may have stored the reply between our read and our marker.
            stored = cache.get(key)
            if stored is not None:
                self.counts["stored"] += 1
                return ServiceReply(source="stored", entry=stored)
            try:
                completion = self.gateway.send(request)
            except LLMError as exc:
                self.counts["failed"] += 1
                return ServiceReply(error=exc)
            self.counts["sent"] += 1
            return ServiceReply(
                source="sent",
                entry=dataclasses.asdict(completion),
                latency_s=completion.latency_s,
                attempts=completion.attempts,
            )
        finally:
            with self.lock:
                self.markers.pop(marker, None)
            try:
                self._release(keys=[marker], args=[token])
            except Exception:  # noqa: BLE001  (it lapses by itself within the TTL)
                log.warning("could not release marker of call %s", key[:12], exc_info=True)

    def _renew_markers(self) -> None:
        while not self.stopped.wait(self.marker_ttl_ms / 3000):
            with self.lock:
                held = list(self.markers.items())
            for marker, token in held:
                try:
                    self._renew(keys=[marker], args=[token, self.marker_ttl_ms])
                except Exception:  # noqa: BLE001  (Redis hiccup: the next round tries again)
                    log.warning("could not renew marker %s", marker, exc_info=True)

    def in_flight(self) -> int:
        with self.lock:
            return len(self.inflight)

    def close(self) -> None:
        self.stopped.set()
        self._renewer.join(5)


def _as(reply: ServiceReply, source: str) -> ServiceReply:
    return dataclasses.replace(reply, source=source, latency_s=0.0, attempts=0)


# -- the socket server --------------------------------------------------------------------


class _Handler(socketserver.StreamRequestHandler):
    server: Any

    def handle(self) -> None:
        try:
            line = self.rfile.readline(MAX_LINE)
            if not line.endswith(b"\n"):
                return  # the caller went away (or sent too much): nothing to answer
            reply = self.server.service.handle(line)
            try:
                self.wfile.write(encode_reply(reply))
            except OSError:
                # the worker died mid-call: the reply is stored, its retry will read it
                log.info("caller of a call went away before the answer; the reply is stored")
        finally:
            connections.close_all()  # this thread's connections go back to the pool


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = False
    block_on_close = True  # server_close() waits for every call in flight: the drain
    request_queue_size = 1024


class _TCPServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = False
    block_on_close = True
    allow_reuse_address = True
    request_queue_size = 1024


def make_server(address: str, service: CallService) -> socketserver.BaseServer:
    family, sockaddr = parse_address(address)
    server: socketserver.BaseServer
    if family == socket.AF_UNIX:
        path = str(sockaddr)
        if os.path.exists(path):
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(path)
            except OSError:
                os.unlink(path)  # left by a service that was killed
            else:
                raise RuntimeError(f"another call service is listening on {path}")
            finally:
                probe.close()
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        # only this user (the workers' user) may connect: the service spends its API keys
        old = os.umask(0o077)
        try:
            server = _UnixServer(path, _Handler)
        finally:
            os.umask(old)
    else:
        _TCPServer.address_family = family
        server = _TCPServer(sockaddr, _Handler)
    server.service = service  # type: ignore[union-attr]
    return server


def serve(address: str, service: CallService, *, out: Any = None) -> None:
    """Serve until SIGTERM or SIGINT, then drain: stop accepting, finish every call in flight."""
    server = make_server(address, service)

    def stop(signum: int, _frame: Any) -> None:
        log.info("signal %s: draining %d calls in flight", signum, service.in_flight())
        threading.Thread(target=server.shutdown, name="shutdown", daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    message = f"podium call service listening on {address} (pid {os.getpid()})"
    log.info(message)
    if out is not None:
        out.write(message + "\n")
        out.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        started = time.monotonic()
        server.server_close()  # closes the listener, then waits for the calls in flight
        service.close()
        service.gateway.close()
        family, sockaddr = parse_address(address)
        if family == socket.AF_UNIX and os.path.exists(sockaddr):
            os.unlink(sockaddr)
        summary = ", ".join(f"{k} {v}" for k, v in sorted(service.counts.items())) or "no calls"
        message = f"podium call service stopped after draining {time.monotonic() - started:.1f} s ({summary})"
        log.info(message)
        if out is not None:
            out.write(message + "\n")
            out.flush()
