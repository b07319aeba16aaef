"""The processes of bench/campaign.py: a fresh PostgreSQL database, the Celery workers started
as the README starts them, the fake provider in its own process, and CPU and memory read from
/proc over each process tree."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.fixtures.workers import worker_command  # the workers' command line, as the tests'

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_database(url: str) -> None:
    from urllib.parse import urlparse

    import psycopg

    name = urlparse(url).path.lstrip("/")
    admin = url.replace(f"/{name}", "/postgres", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _stat(pid: int) -> tuple[int, str, float, int] | None:
    """(ppid, command name, cpu seconds, rss bytes) of a live process."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[1]), name, (int(fields[11]) + int(fields[12])) / TICK, int(fields[21]) * PAGE


def tree(root: int) -> dict[int, tuple[str, float, int]]:
    """Every live process under ``root`` (itself included): name, cpu seconds, rss bytes."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            s = _stat(int(entry.name))
            if s:
                stats[int(entry.name)] = s
    keep, frontier = {}, [root]
    while frontier:
        pid = frontier.pop()
        if pid in stats and pid not in keep:
            keep[pid] = stats[pid][1:]
            frontier += [p for p, s in stats.items() if s[0] == pid]
    return keep


class Worker:
    def __init__(
        self, name: str, cmd: list[str], env: dict[str, str], logdir: Path, kind: str
    ) -> None:
        self.name, self.kind = name, kind
        self.log_path = logdir / f"{name}.log"
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=open(self.log_path, "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def ready(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} exited:\n{self.log_path.read_text()[-3000:]}")
        text = self.log_path.read_text(errors="replace")
        return self.kind == "beat" or " ready." in text or "call service listening on" in text

    def cpu(self) -> tuple[float, float]:
        """(python cpu seconds, stockfish cpu seconds) over the process tree."""
        py = sf = 0.0
        for name, cpu, _ in tree(self.proc.pid).values():
            if "stockfish" in name:
                sf += cpu
            else:
                py += cpu
        return py, sf

    def rss(self) -> int:
        return sum(r for name, _, r in tree(self.proc.pid).values() if "stockfish" not in name)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


def start_workers(args, env: dict[str, str], logdir: Path, workers: list[Worker]) -> None:
    """Start the workers into ``workers`` (the caller stops them, also when this fails)."""
    celery = [sys.executable, "-m", "celery", "-A", "podium"]
    queue = env["PODIUM_QUEUE"]
    if args.topology == "threads":  # the README's lines: the host's call service, then workers
        # (its CPU and memory count with the LLM workers': it does the HTTP work they hand it)
        workers.append(
            Worker(
                "callservice",
                [sys.executable, "manage.py", "podium_callservice"],
                env,
                logdir,
                "llm",
            )
        )
        per = args.cap // args.llm_processes
        for i in range(args.llm_processes):
            workers.append(
                Worker(
                    f"llm{i}",
                    worker_command(
                        name=f"llm{i}", pool="threads", concurrency=per, queues=f"{queue}-llm"
                    ),
                    env,
                    logdir,
                    "llm",
                )
            )
        workers.append(
            Worker(
                "cpu",
                worker_command(
                    name="cpu", pool="prefork", concurrency=os.cpu_count() or 1, queues=queue
                ),
                {**env, "PODIUM_DB_POOL_SIZE": "2"},
                logdir,
                "cpu",
            )
        )
    else:  # the old topology: one prefork worker on everything
        workers.append(
            Worker(
                "prefork",
                worker_command(
                    name="prefork",
                    pool="prefork",
                    concurrency=args.old_concurrency,
                    queues=f"{queue},{queue}-llm",
                ),
                env,
                logdir,
                "llm",
            )
        )
    workers.append(
        Worker(
            "beat",
            celery + ["beat", "-l", "INFO", "-s", str(logdir / "beat-schedule")],
            env,
            logdir,
            "beat",
        )
    )
    deadline = time.monotonic() + 900  # a loaded machine takes minutes to import everything
    while not all(w.ready() for w in workers):
        if time.monotonic() > deadline:
            raise RuntimeError("workers not ready after 900 s")
        time.sleep(0.5)


class FakeProvider:
    def __init__(self, args, logdir: Path) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        env = {
            **os.environ,
            "CAMPAIGN_LATENCY": str(args.latency),
            "CAMPAIGN_SIGMA": str(args.sigma),
            "CAMPAIGN_RPM": str(args.rpm),
            "PYTHONPATH": str(ROOT),
        }
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.fakes.openai_server",
                "--port",
                str(self.port),
                "--rule",
                "bench.campaign_rules:reply",
            ],
            cwd=ROOT,
            env=env,
            stdout=open(logdir / "fake-provider.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.stats()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _call(self, method: str, path: str) -> dict:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=b"" if method == "POST" else None,
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def stats(self) -> dict:
        return self._call("GET", "/stats")

    def calls(self) -> dict:
        """Latency and messages fingerprint of each answered call since the last reset."""
        return self._call("GET", "/calls")

    def reset(self) -> None:
        self._call("POST", "/reset")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
