"""Throughput of the LLM gateway ALONE against a fake endpoint: achieved calls/s over the ideal.

This measures the gateway (evaluators/llm.py) by itself: no Celery, no database, no item
claims, an in-memory response cache. It does not model the platform's workers; for what a
worker host achieves on real jobs (Celery workers as the README starts them, PostgreSQL,
claims, leases, grading), run bench/campaign.py.

The fake OpenAI-compatible server runs in its own process and answers every request
after a fixed latency (200 ms). With 32 calls in flight the ideal rate is 32 / 0.2 =
160 calls/s; what the client loses is its CPU per call (litellm.acompletion costs a few
ms, see DESIGN.md). The in-flight calls can be spread over several plain Python processes
(--processes), each with its own gateway, to show how much of the loss is one process's CPU;
the single-process figure is printed next to it. Each call goes through the whole gateway:
request hash, response cache (in memory), limits, litellm over real HTTP, token and cost
accounting, and a CallRecord handed to an on_call hook.

The 32 in-flight calls are 32 lanes, each making its calls one after another. The lanes'
starts are staggered over the first 200 ms, as in a steady stream of work where replies
arrive spread out; a second row starts them all at once, so every reply of a round lands
together and each process works through a burst of ~16 x 4.5 ms of CPU while calls wait.
The wall time runs from the common start to the last reply, ramp-up and tail included.

    .venv/bin/python bench/llm_throughput.py [--calls 1000] [--in-flight 32]
        [--latency 0.2] [--processes 4] [--skip-single] [--skip-unstaggered]

Prints a table and the ratio achieved / ideal (goal: at least 0.9). The machine's CPUs
are shared; the load average is printed because a busy machine lowers every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

KEY_ENV = "PODIUM_BENCH_LLM_KEY"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get_json(url: str, method: str = "GET") -> Any:
    request = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def start_fake_server(latency: float) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.fakes.openai_server",
            "--port",
            str(port),
            "--latency",
            str(latency),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    root = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 15
    while True:
        try:
            _get_json(root + "/health")
            return proc, root
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the fake OpenAI server did not start") from None
            time.sleep(0.05)


def worker(
    index: int,
    server_root: str,
    calls: int,
    lane_delays: list[float],
    ready: Any,
    go: Any,
    results: Any,
) -> None:
    """One worker process: its own Gateway and one lane per in-flight call; a lane makes
    its calls one after another, starting after its delay."""
    from evaluators.base import ModelConfig
    from evaluators.llm import CallRecord, Gateway, InMemoryResponseCache

    records: list[CallRecord] = []
    gateway = Gateway(cache=InMemoryResponseCache(), on_call=records.append)
    model = ModelConfig(
        slug="bench",
        model="openai/gpt-4o-mini",
        api_base=server_root + "/v1",
        api_key_env=KEY_ENV,
        params={"temperature": 0.0, "max_tokens": 256},
    )
    prompt = (
        "You are playing chess as White. The position is given in FEN. "
        "Reply with one move in UCI notation. "
    )

    in_flight = len(lane_delays)

    async def run(count: int, tag: str, delays: list[float]) -> None:
        numbers = iter(range(count))

        async def lane(delay: float) -> None:
            await asyncio.sleep(delay)
            for i in numbers:  # shared: each call number is taken by exactly one lane
                await gateway.acomplete(
                    [
                        {"role": "system", "content": prompt},
                        {
                            "role": "user",
                            "content": f"{tag} worker {index} call {i}: "
                            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                        },
                    ],
                    model=model,
                )

        await asyncio.gather(*(lane(delay) for delay in delays))

    async def main() -> tuple[float, float, float]:
        # Warm up (lazy imports, one connection per lane), as a long-lived worker would
        # have, then wait for the others.
        await run(in_flight, "warm-up", [0.0] * in_flight)
        ready.put(index)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        cpu0, start = time.process_time(), time.time()
        await run(calls, "measured", lane_delays)
        return start, time.time(), time.process_time() - cpu0

    start, end, cpu = asyncio.run(main())
    ok = sum(1 for r in records if r.ok and not r.cache_hit) - in_flight  # minus the warm-up
    results.put({"index": index, "start": start, "end": end, "cpu": cpu, "ok": ok})


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_server_alone(server_root: str, *, calls: int, in_flight: int) -> dict[str, Any]:
    """The fake server driven by a bare aiohttp client: shows it is not the bottleneck."""
    import aiohttp

    body = {"model": "fake", "messages": [{"role": "user", "content": "ping"}]}

    async def main() -> float:
        gate = asyncio.Semaphore(in_flight)
        connector = aiohttp.TCPConnector(limit=in_flight)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def one() -> None:
                async with (
                    gate,
                    session.post(server_root + "/v1/chat/completions", json=body) as response,
                ):
                    await response.read()

            await asyncio.gather(*(one() for _ in range(in_flight)))  # open the connections
            _get_json(server_root + "/reset", method="POST")
            start = time.perf_counter()
            await asyncio.gather(*(one() for _ in range(calls)))
            return time.perf_counter() - start

    wall = asyncio.run(main())
    stats = _get_json(server_root + "/stats")
    served = stats["successful"]
    return {
        "label": "fake server alone (aiohttp client)",
        "processes": 1,
        "in_flight": in_flight,
        "calls": served,
        "wall": wall,
        "rate": served / wall,
        "cpu_ms": float("nan"),
        "served": served,
        "max_in_flight": stats["max_in_flight"],
    }


def measure(
    server_root: str, *, calls: int, in_flight: int, processes: int, latency: float, stagger: bool
) -> dict[str, Any]:
    _get_json(server_root + "/reset", method="POST")
    ctx = multiprocessing.get_context("spawn")
    ready, go, results = ctx.Queue(), ctx.Event(), ctx.Queue()
    shares = [calls // processes + (1 if i < calls % processes else 0) for i in range(processes)]
    # Lane k of all in_flight lanes belongs to process k % processes. Staggered, it starts
    # k * latency / in_flight after the go, so replies arrive evenly spread as in a steady
    # stream of work; unstaggered, all start at once and every reply of a round arrives
    # together, so each process works through a burst while the others wait.
    lanes: list[list[float]] = [[] for _ in range(processes)]
    for k in range(in_flight):
        lanes[k % processes].append(k * latency / in_flight if stagger else 0.0)
    children = [
        ctx.Process(target=worker, args=(i, server_root, shares[i], lanes[i], ready, go, results))
        for i in range(processes)
    ]
    for child in children:
        child.start()
    try:
        for _ in children:
            ready.get(timeout=180)
        _get_json(server_root + "/reset", method="POST")  # count only the measured calls
        go.set()
        reports = [results.get(timeout=600) for _ in children]
    finally:
        for child in children:
            child.join(30)
            if child.is_alive():
                child.kill()
    served = _get_json(server_root + "/stats")
    wall = max(r["end"] for r in reports) - min(r["start"] for r in reports)
    ok = sum(r["ok"] for r in reports)
    label = "gateway (litellm)" + ("" if stagger else ", all lanes start at once")
    return {
        "label": label,
        "processes": processes,
        "in_flight": in_flight,
        "calls": ok,
        "wall": wall,
        "rate": ok / wall,
        "cpu_ms": 1000 * sum(r["cpu"] for r in reports) / ok,
        "served": served["successful"],
        "max_in_flight": served["max_in_flight"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--in-flight", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.2)
    # 4 plain processes x 8 in flight (not Celery workers): the CPU each call costs in litellm
    # queues behind fewer neighbours than with 2 x 16.
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument(
        "--skip-single", action="store_true", help="do not measure the single-process figure"
    )
    parser.add_argument(
        "--skip-unstaggered",
        action="store_true",
        help="do not measure the variant whose lanes all start at once",
    )
    args = parser.parse_args()
    os.environ.setdefault(KEY_ENV, "sk-bench-not-a-real-key")
    ideal = args.in_flight / args.latency
    load = os.getloadavg()

    server, root = start_fake_server(args.latency)
    try:
        server_cpu0 = _cpu_seconds(server.pid)
        common = {"calls": args.calls, "in_flight": args.in_flight, "latency": args.latency}
        rows = [measure(root, processes=args.processes, stagger=True, **common)]
        server_ms = 1000 * (_cpu_seconds(server.pid) - server_cpu0) / rows[0]["served"]
        if not args.skip_unstaggered:
            rows.append(measure(root, processes=args.processes, stagger=False, **common))
        if not args.skip_single and args.processes != 1:
            rows.append(measure(root, processes=1, stagger=True, **common))
        rows.append(measure_server_alone(root, calls=args.calls, in_flight=args.in_flight))
    finally:
        server.terminate()
        server.wait(10)

    print(
        f"LLM gateway throughput: {args.calls} calls, {args.in_flight} in flight, fake "
        f"endpoint latency {args.latency * 1000:.0f} ms, {os.cpu_count()} CPUs"
    )
    print(
        f"{'client':<48} {'processes':>9} {'in flight each':>14} {'calls':>6} {'wall s':>7} "
        f"{'calls/s':>8} {'ideal/s':>8} {'ratio':>6} {'CPU ms/call':>11} "
        f"{'max at server':>13}"
    )
    for row in rows:
        each = row["in_flight"] / row["processes"]
        print(
            f"{row['label']:<48} {row['processes']:>9} {each:>14.0f} {row['calls']:>6} "
            f"{row['wall']:>7.2f} {row['rate']:>8.1f} {ideal:>8.1f} {row['rate'] / ideal:>6.3f} "
            f"{row['cpu_ms']:>11.2f} {row['max_in_flight']:>13}"
        )
        if row["served"] != row["calls"]:
            print(f"  note: the server answered {row['served']} requests for {row['calls']} calls")
    print(
        f"fake server CPU: {server_ms:.2f} ms per request; load average before the run: "
        f"{load[0]:.2f} (the CPUs are shared: a busy machine lowers every figure)"
    )
    print(
        f"ratio achieved/ideal: {rows[0]['rate'] / ideal:.3f} for the gateway alone in "
        f"{args.processes} plain processes (goal >= 0.9; bench/campaign.py measures the workers)"
    )


if __name__ == "__main__":
    main()
