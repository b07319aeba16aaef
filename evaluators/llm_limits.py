"""Per-model request-rate, token-rate and concurrency limits for the LLM gateway.

With a Redis URL the limits are shared by every process that talks to the same Redis
(all Celery workers on all hosts), so eight workers together stay under a provider's
requests-per-minute. Without one they hold within the process only.

* Rate: a sliding-window log per model. Each admitted request adds an entry (its time,
  and its estimated tokens); a request is admitted when the window holds fewer than
  ``rpm`` requests and fewer than ``tpm - estimate`` tokens. After the call the estimate
  is replaced by the real token count. The check-and-add is one Lua script, so two
  workers can never both take the last place, and it reads Redis' own clock, so hosts
  whose clocks disagree still share one window.
* Concurrency: a semaphore whose holders are entries in a sorted set scored by the
  expiry of their lease. Leases are short (``lease_ttl_s``, 10 s by default) and renewed
  every third of that while their call lives, by one task per event loop that renews all
  the leases held there in one script call per model (hundreds of calls in flight cost one
  Redis round trip per model every few seconds, not a timer each). A worker killed
  mid-call stops renewing, so its slot frees within ``lease_ttl_s`` of its death; before,
  a lease had to outlast the longest call (timeout + 60 s, up to 11 minutes).

Waiting polls with a growing, jittered interval; nothing here blocks the event loop.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
import weakref
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

_RATE_ADMIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rpm, tpm = tonumber(ARGV[1]), tonumber(ARGV[2])
local tokens, window, member = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local cutoff = now - window
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cutoff)
if rpm > 0 then
  local n = redis.call('ZCARD', KEYS[1])
  if n >= rpm then
    local e = redis.call('ZRANGE', KEYS[1], n - rpm, n - rpm, 'WITHSCORES')
    return tostring(tonumber(e[2]) + window - now)
  end
end
if tpm > 0 then
  local entries = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
  local used = 0
  for i = 1, #entries, 2 do
    used = used + tonumber(string.match(entries[i], ':(%d+)$'))
  end
  if used > 0 and used + tokens > tpm then
    for i = 1, #entries, 2 do
      used = used - tonumber(string.match(entries[i], ':(%d+)$'))
      if used + tokens <= tpm then
        return tostring(tonumber(entries[i + 1]) + window - now)
      end
    end
  end
end
redis.call('ZADD', KEYS[1], now, member)
redis.call('ZADD', KEYS[2], now, member .. ':' .. tokens)
local ttl = math.ceil(window * 1000) + 1000
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return '0'
"""

_RATE_SETTLE = """
local old = ARGV[1] .. ':' .. ARGV[2]
local score = redis.call('ZSCORE', KEYS[1], old)
if score then
  redis.call('ZREM', KEYS[1], old)
  redis.call('ZADD', KEYS[1], score, ARGV[1] .. ':' .. ARGV[3])
end
return 1
"""

_SLOT_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000) + 1000)
  return 1
end
return 0
"""

_SLOT_RENEW = """
local t = redis.call('TIME')
local expiry = tonumber(t[1]) + tonumber(t[2]) / 1000000 + tonumber(ARGV[1])
local renewed = 0
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], expiry, ARGV[i])
    renewed = renewed + 1
  end
end
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1]) * 1000) + 1000)
return renewed
"""

DEFAULT_SLOT_LEASE_S = 10.0

_POLL_MIN_S = 0.002
_POLL_MAX_S = 0.05


class Limits(Protocol):
    async def admit(self, key: str, *, rpm: int | None, tpm: int | None, tokens: int) -> str:
        """Wait until one more request of ``tokens`` fits the window; return its ticket."""

    async def settle(self, key: str, ticket: str, *, estimated: int, actual: int) -> None:
        """Replace a ticket's estimated token count by the real one."""

    def slot(self, key: str, limit: int) -> Any:
        """An async context manager holding one of ``limit`` concurrent slots."""


def _grow(delay: float) -> float:
    return min(_POLL_MAX_S, delay * 1.6) * random.uniform(0.75, 1.25)


class RedisLimits:
    """Limits shared through Redis. One redis.asyncio client per event loop."""

    def __init__(
        self,
        url: str,
        *,
        window_s: float = 60.0,
        lease_ttl_s: float = DEFAULT_SLOT_LEASE_S,
        prefix: str = "podium:llm",
    ) -> None:
        self.url = url
        self.window_s = window_s
        self.lease_ttl_s = lease_ttl_s
        self.prefix = prefix
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )
        # leases held per event loop ({slot key: {lease ids}}) and the task renewing them
        self._held: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, set[str]]] = (
            weakref.WeakKeyDictionary()
        )
        self._renewers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def _scripts(self) -> Any:
        import redis.asyncio as aioredis

        loop = asyncio.get_running_loop()
        with self._lock:
            bundle = self._clients.get(loop)
            if bundle is None:
                client = aioredis.Redis.from_url(self.url)
                bundle = (
                    client,
                    client.register_script(_RATE_ADMIT),
                    client.register_script(_RATE_SETTLE),
                    client.register_script(_SLOT_ACQUIRE),
                    client.register_script(_SLOT_RENEW),
                )
                self._clients[loop] = bundle
        return bundle

    async def admit(self, key: str, *, rpm: int | None, tpm: int | None, tokens: int) -> str:
        if not rpm and not tpm:
            return ""  # no window to enter (and no uuid to pay for)
        ticket = uuid.uuid4().hex
        _, admit_script, _, _, _ = self._scripts()
        keys = [f"{self.prefix}:rate:{key}:req", f"{self.prefix}:rate:{key}:tok"]
        while True:
            wait = float(
                await admit_script(
                    keys=keys, args=[rpm or 0, tpm or 0, max(0, int(tokens)), self.window_s, ticket]
                )
            )
            if wait <= 0:
                return ticket
            # Sleep until the oldest blocking entry leaves the window, plus jitter so the
            # waiters of all workers do not retry in one burst.
            await asyncio.sleep(wait + random.uniform(0.001, 0.02))

    async def settle(self, key: str, ticket: str, *, estimated: int, actual: int) -> None:
        if estimated == actual:
            return
        _, _, settle_script, _, _ = self._scripts()
        await settle_script(
            keys=[f"{self.prefix}:rate:{key}:tok"],
            args=[ticket, max(0, int(estimated)), max(0, int(actual))],
        )

    @asynccontextmanager
    async def slot(self, key: str, limit: int) -> AsyncIterator[None]:
        client, _, _, acquire, _ = self._scripts()
        name = f"{self.prefix}:slots:{key}"
        lease = uuid.uuid4().hex
        delay = _POLL_MIN_S
        while not int(await acquire(keys=[name], args=[limit, self.lease_ttl_s, lease])):
            await asyncio.sleep(delay)
            delay = _grow(delay)
        loop = asyncio.get_running_loop()
        held = self._held.setdefault(loop, {})
        held.setdefault(name, set()).add(lease)
        renewer = self._renewers.get(loop)
        if renewer is None or renewer.done():
            self._renewers[loop] = loop.create_task(self._renew(held), name="llm-slot-leases")
        try:
            yield
        finally:
            held[name].discard(lease)
            # Shielded: a cancelled call must still give its slot back.
            await asyncio.shield(client.zrem(name, lease))

    async def _renew(self, held: dict[str, set[str]]) -> None:
        """Extend every lease held on this loop, every third of the lease, until none is."""
        renew = self._scripts()[4]
        interval = self.lease_ttl_s / 3
        while any(held.values()):
            await asyncio.sleep(interval)
            for name, leases in list(held.items()):
                if not leases:
                    continue
                try:
                    await renew(keys=[name], args=[self.lease_ttl_s, *leases])
                except Exception:  # noqa: BLE001  (Redis blinked: the next round renews them)
                    pass

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        renewer = self._renewers.pop(loop, None)
        if renewer is not None:
            renewer.cancel()
        bundle = self._clients.pop(loop, None)
        if bundle is not None:
            await bundle[0].aclose()


class LocalLimits:
    """The same limits within one process (all threads and event loops of it)."""

    def __init__(self, *, window_s: float = 60.0) -> None:
        self.window_s = window_s
        self._lock = threading.Lock()
        self._requests: dict[str, deque[tuple[float, str]]] = {}
        self._tokens: dict[str, dict[str, tuple[float, int]]] = {}
        self._held: dict[str, int] = {}

    async def admit(self, key: str, *, rpm: int | None, tpm: int | None, tokens: int) -> str:
        if not rpm and not tpm:
            return ""
        ticket = uuid.uuid4().hex
        while True:
            wait = self._try_admit(key, rpm, tpm, max(0, int(tokens)), ticket)
            if wait <= 0:
                return ticket
            await asyncio.sleep(wait + random.uniform(0.001, 0.02))

    def _try_admit(
        self, key: str, rpm: int | None, tpm: int | None, tokens: int, ticket: str
    ) -> float:
        now = time.monotonic()
        cutoff = now - self.window_s
        with self._lock:
            requests = self._requests.setdefault(key, deque())
            while requests and requests[0][0] <= cutoff:
                requests.popleft()
            used = self._tokens.setdefault(key, {})
            for old in [t for t, (at, _) in used.items() if at <= cutoff]:
                del used[old]
            if rpm and len(requests) >= rpm:
                return requests[len(requests) - rpm][0] + self.window_s - now
            if tpm:
                total = sum(n for _, n in used.values())
                if total > 0 and total + tokens > tpm:
                    for at, n in sorted(used.values()):
                        total -= n
                        if total + tokens <= tpm:
                            return at + self.window_s - now
            requests.append((now, ticket))
            used[ticket] = (now, tokens)
            return 0.0

    async def settle(self, key: str, ticket: str, *, estimated: int, actual: int) -> None:
        with self._lock:
            used = self._tokens.get(key, {})
            if ticket in used:
                used[ticket] = (used[ticket][0], max(0, int(actual)))

    @asynccontextmanager
    async def slot(self, key: str, limit: int) -> AsyncIterator[None]:
        delay = _POLL_MIN_S
        while not self._try_hold(key, limit):
            await asyncio.sleep(delay)
            delay = _grow(delay)
        try:
            yield
        finally:
            with self._lock:
                self._held[key] -= 1

    def _try_hold(self, key: str, limit: int) -> bool:
        with self._lock:
            if self._held.get(key, 0) >= limit:
                return False
            self._held[key] = self._held.get(key, 0) + 1
            return True
