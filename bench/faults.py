"""Nothing lost, nothing duplicated, nothing paid twice: a large job under injected faults while
workers are SIGKILLed every few seconds, next to the same job without faults.

    .venv/bin/python bench/faults.py [--samples 5] [--workers 3] [--concurrency 3]
        [--llm-threads 128] [--fault-rate 0.3] [--kill-every 10] [--latency 0.05]
        [--llm-timeout 2] [--lease 4] [--runs both|clean|faults] [--no-call-service]
        [--database-url postgres://postgres@127.0.0.1:5432/podium_bench_faults]

The job is the whole HiPhO suite from the shared data (403 problems) times --samples (5: 2,015
items), one model call per item, against the fake OpenAI-compatible server run as a subprocess.
Run 1: no faults, no kills. Run 2: the server injects --fault-rate transient faults (429 with
Retry-After, 500, hung requests, malformed, truncated and empty replies) and a random worker is
SIGKILLed (parent and pool) every --kill-every seconds and replaced. A separate beat process runs
the lease reaper. Each run uses its own model string, so run 2 gets nothing from run 1's cache.

Printed per run: items expected, items stored (done + failed), duplicate rows, duplicate
evaluations (an item's trips to the model beyond one, cache hits included), split into re-runs
of items whose host was killed, re-runs of failed items by the resume, and the rest (the goal-0
part); items taken over, and of those taken from a live worker (its log says it lost the lease:
a killed worker cannot); calls paid twice (the server's successful replies minus the distinct
requests that needed one); open call intents (sent, never closed: counted at unknown cost);
billed calls missing from the cost records (successful replies minus logged successes minus
open intents); the peak of calls in flight at the server; the median and slowest time from a
host's start to its workers consuming; and the wall time. --runs both adds the ratio of the
two wall times.

Topology (--topology campaign, the default): each host is a threads worker on the LLM queue
(--llm-threads in flight) plus a prefork worker on the CPU queue, as scripts/demo.sh starts
them, and (--call-service, the default once the command exists) the host's call service,
which a kill spares: it is outside the workers' failure domain, and the killed host's
replacement uses it. A kill takes a host's workers. --topology prefork runs one prefork worker
per host. The database is dropped and recreated (a PostgreSQL database of its own, or a SQLite
file under var/ for a sqlite:/// URL). Keep --llm-timeout above --latency: a request that times
out is still billed (and counted here as paid twice).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PODIUM_SHARED_DATA") or ROOT / ".." / "shared" / "data")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_database(url: str) -> None:
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        return
    from urllib.parse import urlparse

    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = url.replace(f"/{name}", "/postgres", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


class FakeServer:
    def __init__(self, *, latency: float, fault_rate: float, log: Path) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        args = [
            sys.executable,
            "-m",
            "tests.fakes.openai_server",
            "--port",
            str(self.port),
            "--latency",
            str(latency),
            "--fault-rate",
            str(fault_rate),
            "--hang",
            "3",
            "--faults",
            "rate_limit,server_error,timeout,malformed,truncated,empty,empty_body",
            "--retry-after",
            "1",
            "--seed",
            "7",
        ]
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            stdout=open(log, "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.stats()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("fake server did not start")

    def stats(self) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=5) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


class Fleet:
    """Worker hosts and one beat. A host is, as README/scripts/demo.sh start them (the campaign
    topology), a threads worker on the LLM queue (--llm-threads calls in flight) plus a prefork
    worker on the CPU queue; or, with --topology prefork, one prefork worker on both queues.
    Workers start through tests/fixtures/workers.py (as the test suite's do), each in its own
    process group, and a kill takes the whole host (every worker of it)."""

    def __init__(
        self,
        env: dict[str, str],
        logdir: Path,
        concurrency: int,
        topology: str = "campaign",
        llm_threads: int = 128,
        slots: int = 3,
        call_service: bool = False,
    ) -> None:
        self.env, self.logdir, self.concurrency = env, logdir, concurrency
        self.topology, self.llm_threads = topology, llm_threads
        self.hosts: dict[int, object] = {}  # host slot -> its live workers
        self.retired: list = []  # killed hosts, kept for their start-up times
        self.started = 0
        # One call service per host slot, as the README runs it: outside the workers' failure
        # domain, so a kill takes the workers of a host and its service lives on for the
        # replacement workers of that slot.
        self.services: dict[int, tuple[str, subprocess.Popen]] = {}
        if call_service:
            sockets = tempfile.mkdtemp(prefix="podium-bench-cs-")
            for slot in range(slots):
                address = f"unix:{sockets}/host{slot}.sock"
                proc = subprocess.Popen(
                    [sys.executable, "manage.py", "podium_callservice", "--address", address],
                    cwd=ROOT,
                    env={**env, "PODIUM_CALL_SERVICE": address},
                    stdout=open(logdir / f"callservice{slot}.log", "wb"),  # noqa: SIM115
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
                self.services[slot] = (address, proc)
            deadline = time.monotonic() + 300
            for slot, (_, proc) in self.services.items():
                log = logdir / f"callservice{slot}.log"
                while "listening on" not in log.read_text(errors="replace"):
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"call service {slot} did not start:\n{log.read_text()}")
                    time.sleep(0.1)
        self.beat = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "podium",
                "beat",
                "-l",
                "WARNING",
                "-s",
                str(logdir / "beat-schedule"),
            ],
            cwd=ROOT,
            env=env,
            stdout=open(logdir / "beat.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start(self, slot: int) -> None:
        from tests.fixtures.workers import WorkerProcess, start_host

        self.started += 1
        name = f"bench{self.started}"
        env = self.env
        if slot in self.services:
            env = {**env, "PODIUM_CALL_SERVICE": self.services[slot][0]}
        if self.topology == "campaign":
            host = start_host(
                name=name,
                env=env,
                logdir=self.logdir,
                llm_threads=self.llm_threads,
                cpu_processes=self.concurrency,
                loglevel="INFO",  # (the " ready." line is logged at INFO)
            )
        else:  # both queues of jobs.queue on one prefork worker
            host = WorkerProcess(
                name=name,
                env=env,
                kind="both",
                concurrency=self.concurrency,
                logdir=self.logdir,
                loglevel="INFO",  # (the " ready." line is logged at INFO)
            )
        self.hosts[slot] = host

    def poll_ready(self) -> int:
        """How many live hosts consume (and note when each became ready)."""
        return sum(1 for h in self.hosts.values() if h.ready())

    def wait_ready(self, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while self.poll_ready() < len(self.hosts):
            if time.monotonic() > deadline:
                raise RuntimeError(f"workers not ready after {timeout} s")
            time.sleep(0.1)

    def start_times(self) -> list[float]:
        hosts = self.retired + list(self.hosts.values())
        return [h.time_to_ready for h in hosts if h.time_to_ready is not None]

    def kill_one(self, rng: random.Random) -> int:
        """SIGKILL the workers of a random host; returns its slot (to start its replacement)."""
        slot = rng.choice(sorted(self.hosts))
        victim = self.hosts.pop(slot)
        victim.kill(signal.SIGKILL)
        self.retired.append(victim)
        return slot

    def stop(self) -> None:
        for host in self.hosts.values():
            host.stop()
        for _, proc in self.services.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        if self.beat.poll() is None:
            os.killpg(self.beat.pid, signal.SIGTERM)
            try:
                self.beat.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.beat.pid, signal.SIGKILL)


def run_job(
    *,
    label: str,
    args,
    env: dict[str, str],
    logdir: Path,
    fault_rate: float,
    kill_every: float | None,
) -> dict:
    from django.db.models import Count

    from catalog.models import Benchmark, ModelEntry
    from jobs import services
    from jobs.models import CachedResponse, ItemResult, Job, LLMCall

    logdir = logdir / label
    logdir.mkdir(parents=True, exist_ok=True)
    server = FakeServer(latency=args.latency, fault_rate=fault_rate, log=logdir / "fake.log")
    model = ModelEntry.objects.create(
        slug=f"bench-{label}",
        display_name=f"bench {label}",
        litellm_model=f"openai/bench-{label}",
        api_base=server.base_url,
        api_key_env="PODIUM_FAKE_LLM_KEY",
        params={"temperature": 0.6},
    )
    bench = Benchmark.objects.get(slug="bench/hipho-suite")
    fleet = Fleet(
        env,
        logdir,
        args.concurrency,
        args.topology,
        args.llm_threads,
        slots=args.workers,
        call_service=args.call_service,
    )
    for slot in range(args.workers):
        fleet.start(slot)
    rng = random.Random(1)
    kills = 0
    resumed = 0
    resumed_ids: set[int] = set()
    try:
        fleet.wait_ready()  # the clock starts when the first hosts consume
        started = time.monotonic()
        job = services.job_submit(
            models=[model], benchmarks=[bench], samples=args.samples, name=f"bench faults {label}"
        )
        next_kill = started + (kill_every or 0)
        last_report = started
        while True:
            job.refresh_from_db()
            if job.status == Job.Status.DONE:
                if job.failed_items and not resumed:
                    resumed_ids = set(
                        ItemResult.objects.filter(run__job=job, state="failed").values_list(
                            "pk", flat=True
                        )
                    )
                    resumed = services.job_resume(job=job)  # retry what failed past the retries
                    continue
                break
            now = time.monotonic()
            ready = fleet.poll_ready()
            if kill_every and now >= next_kill:
                fleet.start(fleet.kill_one(rng))
                kills += 1
                next_kill = now + kill_every
            if now - last_report > 15:
                print(
                    f"  [{label}] {job.done_items + job.failed_items}/{job.total_items} items, "
                    f"{kills} kills, {ready}/{len(fleet.hosts)} hosts ready, "
                    f"{now - started:.0f} s",
                    flush=True,
                )
                last_report = now
            time.sleep(0.2)
        wall = time.monotonic() - started
        stats = server.stats()
    finally:
        fleet.stop()
        server.stop()
    start_times = sorted(fleet.start_times())
    # a worker that is alive when another takes its item over says so (jobs/leases.py); a
    # killed worker cannot, so these are the takeovers that no kill explains
    # Who took what over, from the workers' logs: the reaper logs each takeover, and a worker
    # that is alive when its item is taken over logs that it lost the lease (a killed one cannot).
    logs = "\n".join(p.read_text(errors="replace") for p in logdir.glob("*.log"))
    taken = {int(m) for m in re.findall(r"item (\d+): lease expired", logs)}
    lost_live = {int(m) for m in re.findall(r"item (\d+): lease lost while this worker", logs)}
    items = ItemResult.objects.filter(run__job=job)
    rows = items.count()
    distinct = items.values("run", "item_key", "sample_index").distinct().count()
    needed = CachedResponse.objects.filter(model=model.litellm_model).count()
    paid_rows = (
        LLMCall.objects.filter(run__job=job, cache_hit=False, error_class="")
        .values("request_hash")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    logged_paid = LLMCall.objects.filter(run__job=job, cache_hit=False, error_class="").count()
    # calls sent and never closed (their worker died mid-call): counted, cost unknown
    open_intents = LLMCall.objects.filter(run__job=job, error_class="InFlight").count()
    # an evaluation is an item's trip to the model (paid or answered from the cache): more than
    # one per item means the item was evaluated again, even when no duplicate row remains
    calls_per_item = (
        LLMCall.objects.filter(run__job=job, purpose="model")
        .values("item_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    duplicate_evaluations = sum(row["n"] - 1 for row in calls_per_item)
    # the unavoidable ones: an item re-run because its host was killed; and the re-run of an item
    # that failed (its calls failed past the retries) by the resume
    after_kill = sum(row["n"] - 1 for row in calls_per_item if row["item_id"] in taken - lost_live)
    after_failure = sum(
        row["n"] - 1
        for row in calls_per_item
        if row["item_id"] in resumed_ids and row["item_id"] not in taken - lost_live
    )
    return {
        "label": label,
        "expected": job.total_items,
        "stored_done": items.filter(state="done").count(),
        "stored_failed": items.filter(state="failed").count(),
        "rows": rows,
        "duplicates": rows - distinct,
        "taken_over": items.filter(attempts__gt=1).count(),
        "taken_from_live": len(lost_live),
        "host_start_median_s": start_times[len(start_times) // 2] if start_times else 0.0,
        "host_start_max_s": start_times[-1] if start_times else 0.0,
        "resumed": resumed,
        "kills": kills,
        "served": stats["requests"],
        "successful": stats["successful"],
        "faults": stats["faults_total"],
        "needed": needed,
        "paid_twice": stats["successful"] - needed,
        "logged_paid_twice": paid_rows,
        "duplicate_evals": duplicate_evaluations,
        "dup_evals_after_kill": after_kill,
        "dup_evals_after_failure": after_failure,
        "dup_evals_other": duplicate_evaluations - after_kill - after_failure,
        "peak_in_flight": stats.get("max_in_flight", 0),
        "open_intents": open_intents,
        "billed_not_costed": max(0, stats["successful"] - logged_paid - open_intents),
        "retried_calls": LLMCall.objects.filter(run__job=job, retries__gt=0).count(),
        "wall_s": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=3)
    parser.add_argument("--fault-rate", type=float, default=0.3)
    parser.add_argument("--kill-every", type=float, default=10.0)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--topology", choices=["campaign", "prefork"], default="campaign")
    parser.add_argument(
        "--lease", type=int, default=4, help="item lease (s): a dead worker's items wait this long"
    )
    parser.add_argument(
        "--llm-timeout",
        type=float,
        default=2.0,
        help="client timeout (s): keep it above --latency, or every call times out",
    )
    parser.add_argument(
        "--llm-threads", type=int, default=128, help="calls in flight per host (campaign)"
    )
    parser.add_argument(
        "--call-service",
        action=argparse.BooleanOptionalAction,
        default=(ROOT / "platform/jobs/management/commands/podium_callservice.py").exists(),
        help="a call service per host (manage.py podium_callservice), as the README runs it",
    )
    parser.add_argument(
        "--runs",
        choices=["both", "clean", "faults"],
        default="both",
        help="which runs to make (the ratio of wall times needs both)",
    )
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/podium_bench_faults"
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args()
    if not (SHARED / "hipho").is_dir():
        sys.exit(f"HiPhO data not found at {SHARED / 'hipho'} (set PODIUM_SHARED_DATA)")

    fresh_database(args.database_url)
    logdir = ROOT / "var" / "bench-faults"
    logdir.mkdir(parents=True, exist_ok=True)
    queue = f"podium-bench-faults-{os.getpid()}"
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "PODIUM_QUEUE": queue,
        "PODIUM_CACHE_PREFIX": queue,
        "DJANGO_SETTINGS_MODULE": "podium.settings",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        "PODIUM_ITEM_LEASE_SECONDS": str(args.lease),
        "PODIUM_REAPER_INTERVAL_SECONDS": "1",
        "PODIUM_LLM_TIMEOUT_SECONDS": str(args.llm_timeout),
        "PODIUM_LLM_BACKOFF_BASE_SECONDS": "0.2",
        "PODIUM_MAX_ITEM_ATTEMPTS": "5",
        "PODIUM_FAKE_LLM_KEY": "sk-bench-faults",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    os.environ.update(env)
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    from django.core.management import call_command

    from catalog.models import Benchmark

    call_command("migrate", verbosity=0)
    Benchmark.objects.create(
        slug="bench/hipho-suite",
        name="HiPhO suite (bench)",
        family="hipho",
        config={"source": "dir", "path": str(SHARED / "hipho"), "exam": "suite"},
    )
    try:
        results = []
        if args.runs in ("both", "clean"):
            results.append(
                run_job(
                    label="clean",
                    args=args,
                    env=env,
                    logdir=logdir,
                    fault_rate=0.0,
                    kill_every=None,
                )
            )
        if args.runs in ("both", "faults"):
            results.append(
                run_job(
                    label="faults",
                    args=args,
                    env=env,
                    logdir=logdir,
                    fault_rate=args.fault_rate,
                    kill_every=args.kill_every,
                )
            )
    finally:
        import redis

        redis.Redis.from_url(args.redis_url).delete(queue, f"{queue}-llm")

    shape = (
        f"{args.workers} hosts x ({args.llm_threads} LLM threads + {args.concurrency} CPU processes)"
        if args.topology == "campaign"
        else f"{args.workers} workers x {args.concurrency} processes"
    )
    print(
        f"\nHiPhO suite x {args.samples} samples, {shape}, latency {args.latency} s, "
        f"kill every {args.kill_every} s, fault rate {args.fault_rate}, lease {args.lease} s, "
        f"call service per host: {'yes' if args.call_service else 'no'}, "
        f"database {args.database_url.split(':')[0]}"
    )
    cols = [
        "expected",
        "stored_done",
        "stored_failed",
        "duplicates",
        "duplicate_evals",
        "dup_evals_after_kill",
        "dup_evals_after_failure",
        "dup_evals_other",
        "taken_over",
        "taken_from_live",
        "resumed",
        "kills",
        "served",
        "successful",
        "faults",
        "needed",
        "paid_twice",
        "logged_paid_twice",
        "open_intents",
        "billed_not_costed",
        "retried_calls",
        "peak_in_flight",
        "host_start_median_s",
        "host_start_max_s",
        "wall_s",
    ]
    titles = {"clean": "no faults", "faults": "faults+kills"}
    print(f"{'':22}" + "".join(f"{titles[r['label']]:>14}" for r in results))
    for c in cols:
        fmt = (lambda v: f"{v:.1f}") if c.endswith("_s") else str
        print(f"{c:22}" + "".join(f"{fmt(r[c]):>14}" for r in results))
    last = results[-1]
    print(
        f"\n[{titles[last['label']]}] items expected: {last['expected']}, "
        f"stored: {last['stored_done'] + last['stored_failed']}, "
        f"items lost: {last['expected'] - last['stored_done'] - last['stored_failed']}, "
        f"duplicate rows: {last['duplicates']}, "
        f"duplicate evaluations: {last['duplicate_evals']} "
        f"({last['dup_evals_after_kill']} re-runs after a kill, "
        f"{last['dup_evals_after_failure']} after a failure, {last['dup_evals_other']} other), "
        f"billed calls missing from cost records: {last['billed_not_costed']}, "
        f"calls paid twice: {last['paid_twice']} ({last['kills']} kills)"
    )
    if len(results) == 2:
        print(f"wall time with faults / without: {results[1]['wall_s'] / results[0]['wall_s']:.2f}")


if __name__ == "__main__":
    main()
