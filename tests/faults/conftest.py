"""Shared pieces of the fault-injection suite: benchmarks that make items take time, a fake-LLM
rule wrapper that records every call the provider would bill, and a private Redis server that a
test may kill and restart (the machine's Redis on 6379 is shared and is never touched)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import chess
import pytest

from catalog.models import Benchmark
from tests.requirements import require

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("PODIUM_SHARED_DATA") or ROOT / ".." / "shared" / "data")
HIPHO_DIR = SHARED_DATA / "hipho"


def body_hash(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


class PaidLog:
    """Wraps a reply rule; records (arrival time, body hash) of every request answered with a
    completion, i.e. every call a provider would bill. The fake server calls the rule only when it
    answers successfully (scripted replies and injected faults never reach it)."""

    def __init__(self, reply) -> None:
        self.reply = reply
        self.lock = threading.Lock()
        self.entries: list[tuple[float, str]] = []

    def __call__(self, request: dict):
        out = self.reply(request)
        if isinstance(out, str) or (out.status in (None, 200) and out.fault is None):
            with self.lock:
                self.entries.append((time.time(), body_hash(request)))
        return out

    @property
    def paid(self) -> int:
        return len(self.entries)

    def paid_since(self, t: float) -> int:
        with self.lock:
            return sum(1 for at, _ in self.entries if at >= t)

    def paid_twice(self) -> Counter:
        """Bodies answered more than once (identical request bodies paid again)."""
        with self.lock:
            counts = Counter(h for _, h in self.entries)
        return Counter({h: n for h, n in counts.items() if n > 1})

    def repaid_after_delivery(
        self, *, kill_time: float, latency: float, margin: float = 1.0
    ) -> list[str]:
        """Bodies answered again although their first answer had been delivered well before the
        worker died (first answer chosen before kill - latency - margin). Calls in flight at the
        kill may legitimately be sent again; these may not: the cache must answer them."""
        first: dict[str, float] = {}
        with self.lock:
            entries = list(self.entries)
        for at, h in entries:
            first.setdefault(h, at)
        twice = Counter(h for _, h in entries)
        return [h for h, n in twice.items() if n > 1 and first[h] < kill_time - latency - margin]


@pytest.fixture
def paid_rule(fake_llm):
    """install(reply_fn) -> PaidLog, set as the fake server's rule."""

    def install(reply) -> PaidLog:
        log = PaidLog(reply)
        fake_llm.rule = log
        return log

    return install


# --- benchmarks --------------------------------------------------------------------------


@pytest.fixture
def hipho_exam(db) -> Benchmark:
    """EuPhO 2024 from the shared HiPhO data (7 problems), answer-level grading (no judge)."""
    require((HIPHO_DIR / "EuPhO_2024.json").is_file(), f"HiPhO data at {HIPHO_DIR}")
    return Benchmark.objects.create(
        slug="faults/eupho-2024",
        name="EuPhO 2024 (faults)",
        family="hipho",
        config={"source": "dir", "path": str(HIPHO_DIR), "exam": "eupho-2024"},
    )


def boxed_rule(request: dict) -> str:
    return "Reasoning about the problem. The answer is \\boxed{1}."


@pytest.fixture
def hanabi_game(db) -> Benchmark:
    return Benchmark.objects.create(
        slug="faults/hanabi-watson-2p",
        name="Hanabi Watson 2p (faults)",
        family="hanabi",
        config={"players": 2, "setting": "watson", "mode": "self"},
    )


_LEGAL = re.compile(r"^(\d+)\. \((\w+)", re.MULTILINE)


def hanabi_rule(request: dict) -> str:
    """A legal Watson move: a hint when one is listed, else a discard."""
    prompt = request["messages"][1]["content"]
    kinds = {kind: int(i) for i, kind in reversed(_LEGAL.findall(prompt))}
    idx = kinds.get("Reveal", kinds.get("Discard", 0))
    return f"Keep the team informed.\nMOVE: {idx}"


@pytest.fixture
def chess_game(db) -> Benchmark:
    require(
        Path("/usr/games/stockfish").exists() or shutil.which("stockfish") is not None, "Stockfish"
    )
    return Benchmark.objects.create(
        slug="faults/chess-vs-random",
        name="Chess vs random (faults)",
        family="chess",
        config={
            "task": "games",
            "opponents": [{"player": "random"}],
            "games_per_opponent": 1,
            "max_moves": 30,
            "engine": {"nodes": 2000},
            "percentile": False,
        },
    )


_FEN = re.compile(r"Position \(FEN\): (.+)")


def chess_rule(request: dict) -> str:
    """The first legal move (UCI order) of the position in the prompt."""
    text = next(m["content"] for m in request["messages"] if m["role"] == "user")
    board = chess.Board(_FEN.search(text).group(1).strip())
    move = min(board.legal_moves, key=lambda m: m.uci())
    return f"Developing. Final answer: {move.uci()}"


# --- a private Redis server --------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """redis-server on a free port without persistence, so a restart loses every message."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping():
                    return
            except redis.RedisError:
                time.sleep(0.1)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path):
    require(shutil.which("redis-server") is not None, "redis-server binary")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.kill()
