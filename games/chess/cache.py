"""Analysis cache keyed by (FEN, engine id and version, search limit, restricted moves).

``MemoryAnalysisCache`` lives in one process; ``RedisAnalysisCache`` is shared by every worker,
so a position analysed once is never analysed again anywhere. Values are JSON dicts.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol


class AnalysisCache(Protocol):
    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, value: dict[str, Any]) -> None: ...


def analysis_key(
    fen: str, engine_id: str, limit_key: str, root_moves: Sequence[str] | None = None
) -> str:
    moves = ",".join(sorted(root_moves)) if root_moves else "*"
    return f"{engine_id}|{limit_key}|{fen}|{moves}"


class MemoryAnalysisCache:
    """A bounded in-process LRU cache."""

    def __init__(self, max_entries: int = 200_000) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> dict[str, Any] | None:
        value = self._data.get(key)
        if value is None:
            self.misses += 1
            return None
        self._data.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.max_entries:
            self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


class RedisAnalysisCache:
    """A cache in Redis shared by all workers; entries expire after ``ttl_s`` (None: never)."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "podium:chess:analysis:",
        ttl_s: int | None = 30 * 86400,
        client: Any = None,
    ) -> None:
        import redis  # imported here so the in-memory cache needs no Redis client

        self.url = url
        self.prefix = prefix
        self.ttl_s = ttl_s
        self._redis = client or redis.Redis.from_url(url)
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> dict[str, Any] | None:
        raw: Any = self._redis.get(self.prefix + key)
        if raw is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(raw)

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._redis.set(self.prefix + key, json.dumps(value, separators=(",", ":")), ex=self.ttl_s)

    def clear(self) -> int:
        """Delete every entry under this prefix (tests and benchmarks use their own prefix)."""
        n = 0
        for k in self._redis.scan_iter(match=self.prefix + "*", count=1000):
            n += int(self._redis.delete(k))  # type: ignore[arg-type]
        return n
