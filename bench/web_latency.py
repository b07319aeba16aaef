"""Latency of the main pages and API endpoints on a large database, under concurrent load.

Seeds a PostgreSQL database of its own (default podium_bench, dropped and re-created) with
200 models x 20 benchmarks (4,000 aggregated runs, metrics in the shape of the Run.metrics
contract) and 5,000,000 item results (INSERT ... SELECT inside PostgreSQL), builds the leaderboard read model through
leaderboard.services, starts gunicorn on 127.0.0.1 and measures median and p95 latency per URL
with concurrent keep-alive clients. Prints each against the 100 ms goal.

    .venv/bin/python bench/web_latency.py [--items 5000000] [--clients 16] [--requests 60] [--keep]

Numbers depend on the machine and on what else runs on it; the script prints them, nothing
asserts them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
GOAL_MS = 100.0
N_MODELS, N_BENCHMARKS = 200, 20
HIPHO_EXAMS = [
    "ipho-2025",
    "ipho-2024",
    "apho-2025",
    "eupho-2025",
    "eupho-2024",
    "nbpho-2025",
    "panpho-2025",
]
HANABI = [
    (2, "watson"),
    (2, "sherlock"),
    (2, "mycroft"),
    (3, "watson"),
    (3, "mycroft"),
    (4, "sherlock"),
    (5, "mycroft"),
]
CHESS = ["best_move", "mc_best", "mc_worst", "legal_moves", "puzzles", "games"]


INSERT_ITEMS = (
    "INSERT INTO jobs_itemresult (run_id, item_key, sample_index, state, claim_token, attempts, score, "
    "scores, details, transcript, error, finished_at) "
    "SELECT r.id, 'item-' || lpad(k::text, 4, '0'), 0, 'done', '', 1, round(((k %% 7) / 6.0)::numeric, 3), "
    "'{}'::jsonb, %s::jsonb, %s::jsonb, '', %s "
    "FROM jobs_run r CROSS JOIN generate_series(0, %s) AS k WHERE r.id BETWEEN %s AND %s ORDER BY r.id, k"
)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def admin_conn(host: str):
    return psycopg.connect(f"postgresql://postgres@{host}:5432/postgres", autocommit=True)


def create_database(host: str, name: str) -> None:
    with admin_conn(host) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(host: str, name: str) -> None:
    with admin_conn(host) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def django_env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        "DJANGO_SETTINGS_MODULE": "podium.settings",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }


def _config(family: str, spec) -> dict:
    """HiPhO benchmarks point at the real exams (the exam page shows their figures); the other
    families' pages never read the config, so a label is enough there."""
    if family == "hipho":
        shared = Path(os.environ.get("PODIUM_SHARED_DATA") or ROOT.parent / "shared" / "data")
        return {"source": "dir", "path": str(shared / "hipho"), "exam": spec}
    return {"spec": str(spec)}


def metrics_for(family: str, spec, rng: random.Random, skill: float) -> dict:
    if family == "hipho":
        full = 30.0
        score = max(0.0, min(full, skill * full + rng.gauss(0, 2)))
        se = 0.5 + rng.random()
        medal = (
            "gold"
            if score >= 20
            else "silver"
            if score >= 15
            else "bronze"
            if score >= 10
            else "none"
        )
        pg = min(1.0, max(0.0, (score - 17) / 6))
        return {
            "score": score,
            "score_se": se,
            "n_items": 250,
            "n_failed": 0,
            "exam_id": spec,
            "exam_name": spec.upper(),
            "full_marks": full,
            "human_full": full,
            "score_ci95": [score - 2 * se, score + 2 * se],
            "medal": medal,
            "medal_probs": {
                "gold": pg,
                "silver": (1 - pg) / 2,
                "bronze": (1 - pg) / 4,
                "none": (1 - pg) / 4,
            },
            "cutoffs": {"gold": 20.0, "silver": 15.0, "bronze": 10.0, "top_human": 28.0},
            "share_of_top_human": score / 28,
            "answer_level_only": False,
            "problems": {
                f"T{i}": {
                    "full": 10.0,
                    "A": score / 3,
                    "S": score / 3,
                    "P": score / 3,
                    "best_scheme": 0,
                }
                for i in range(1, 4)
            },
        }
    if family == "hanabi":
        players, setting = spec
        score = max(0.0, min(25.0, skill * 25 + rng.gauss(0, 1.5)))
        return {
            "score": score,
            "score_se": 0.4 + rng.random(),
            "n_items": 250,
            "n_failed": 0,
            "players": players,
            "setting": setting,
            "mode": "self",
            "partners": [],
            "mean_hle_score": score * 0.8,
            "hle_score_se": 0.5,
            "perfect_rate": skill / 5,
            "bomb_rate": (1 - skill) / 3,
            "mean_turns": 60.0,
            "invalid_replies": 3,
            "fallbacks": 1,
            "mean_regret": None,
            "games": 250,
        }
    task = spec
    score = 800 + 1200 * skill if task == "games" else 100 * skill
    m = {
        "score": score,
        "score_se": 40.0 if task == "games" else 2.0,
        "n_items": 250,
        "n_failed": 0,
        "task": task,
        "accuracy": 100 * skill,
        "acpl": 200 * (1 - skill),
        "move_classes": {
            "best": int(100 * skill),
            "excellent": 20,
            "good": 20,
            "inaccuracy": 10,
            "mistake": 5,
            "blunder": int(20 * (1 - skill)),
        },
        "legal_first_try": 0.8 + skill / 5,
        "legal_final": 0.95,
        "parse_failures": 2,
        "hallucination_rate": 0.1 * (1 - skill),
        "percentile_rank_mean": 100 * skill,
    }
    if task == "puzzles":
        m["puzzle_accuracy_by_band"] = {
            b: {"n": 50, "solved": int(50 * skill), "rate": skill}
            for b in ("<1000", "1000-1500", "1500-2000", ">=2000")
        }
    if task == "games":
        m.update(elo=score, elo_ci95=[score - 80, score + 80], wins=10, draws=5, losses=10)
        m.update(opponent_metrics(rng))
    return m


LADDER_RUNGS = [("stockfish-nodes-250", 1200.0), ("stockfish-nodes-2000", 1650.0)]
LADDER_RUNGS += [("stockfish-nodes-8000", 1900.0), ("stockfish-nodes-20000", 2150.0)]


def opponent_metrics(rng: random.Random) -> dict:
    """Per-opponent W/D/L of a games run (pairings and by_opponent), summing to 10 / 5 / 10."""
    split = [(3, 1, 1), (3, 2, 2), (2, 1, 3), (2, 1, 4)]
    rng.shuffle(split)
    pairings, by_opponent = [], {}
    for (name, rating), (w, d, lo) in zip(LADDER_RUNGS, split):
        pairings.append(
            {
                "opponent": name,
                "wins": w,
                "draws": d,
                "losses": lo,
                "rating": rating,
                "rating_se": 30.0,
            }
        )
        by_opponent[name] = {
            "games": w + d + lo,
            "points": w + 0.5 * d,
            "wins": w,
            "draws": d,
            "losses": lo,
            "elo": None,
        }
    return {"pairings": pairings, "by_opponent": by_opponent}


def seed(database_url: str, n_items: int) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.update(django_env(database_url))
    import django

    django.setup()
    from django.db import connection
    from django.utils import timezone

    from catalog.models import Benchmark, ModelEntry
    from jobs.models import Job, Run

    rng = random.Random(7)
    orgs = [f"Org {i}" for i in range(12)]
    models = ModelEntry.objects.bulk_create(
        [
            ModelEntry(
                slug=f"model-{i:03d}",
                display_name=f"Model {i:03d}",
                litellm_model=f"openai/model-{i:03d}",
                organisation=orgs[i % len(orgs)],
                open_weights=i % 3 == 0,
                parameter_count_b=float(2 ** (i % 10)),
                modality="vision" if i % 4 == 0 else "text",
            )
            for i in range(N_MODELS)
        ]
    )
    specs = (
        [("hipho", e, f"hipho/{e}") for e in HIPHO_EXAMS]
        + [("hanabi", c, f"hanabi/{c[0]}p-{c[1]}") for c in HANABI]
        + [("chess", t, f"chess/{t}") for t in CHESS]
    )
    assert len(specs) == N_BENCHMARKS
    benches = Benchmark.objects.bulk_create(
        [
            Benchmark(slug=slug, name=slug, family=fam, config=_config(fam, spec))
            for fam, spec, slug in specs
        ]
    )
    now = timezone.now()
    jobs = Job.objects.bulk_create(
        [
            Job(name=f"bench {b.slug}", status=Job.Status.DONE, samples=1, total_items=0)
            for b in benches
        ]
    )
    skills = [rng.random() for _ in models]
    runs = []
    per_run = max(1, n_items // (N_MODELS * N_BENCHMARKS))
    for (fam, spec, _), bench, job in zip(specs, benches, jobs):
        for model, skill in zip(models, skills):
            metrics = metrics_for(fam, spec, rng, skill)
            runs.append(
                Run(
                    job=job,
                    model=model,
                    benchmark=bench,
                    status=Run.Status.DONE,
                    spec={
                        "benchmark_version": "1",
                        "prompt_hash": "p" * 16,
                        "grader_version": "1",
                        "code_version": "bench",
                        "config": bench.config,
                    },
                    spec_hash="s" * 64,
                    metrics=metrics,
                    score=metrics["score"],
                    score_se=metrics["score_se"],
                    total_items=per_run,
                    done_items=per_run,
                    input_tokens=100_000,
                    output_tokens=50_000,
                    cost_usd=rng.random() * 5,
                    finished_at=now,
                    aggregated_at=now,
                )
            )
    Run.objects.bulk_create(runs, batch_size=1000)
    Job.objects.update(total_items=per_run * N_MODELS, done_items=per_run * N_MODELS)
    log(f"seeded {len(models)} models, {len(benches)} benchmarks, {len(runs)} runs; copying items")
    run_ids = list(Run.objects.order_by("id").values_list("id", flat=True))
    transcript = json.dumps(
        [
            {"role": "prompt", "text": "Solve the problem. " * 10},
            {"role": "reply", "text": "The answer is 42. " * 20},
            {"role": "grading", "text": "numeric match"},
        ]
    )
    started = time.perf_counter()
    # Rows are generated inside PostgreSQL (INSERT ... SELECT over generate_series): nothing
    # crosses the socket, so 5,000,000 rows take minutes instead of an hour of COPY from Python.
    with connection.cursor() as cur:
        for i in range(0, len(run_ids), 400):
            chunk = run_ids[i : i + 400]
            cur.execute(
                INSERT_ITEMS,
                [json.dumps({"note": "bench"}), transcript, now, per_run - 1, chunk[0], chunk[-1]],
            )
            log(f"  items of runs {i + 1}-{i + len(chunk)} of {len(run_ids)} inserted")
        cur.execute("ANALYZE")
    log(f"copied {per_run * len(run_ids):,} item results in {time.perf_counter() - started:.1f} s")
    from leaderboard.services import leaderboard_refresh_all

    started = time.perf_counter()
    pairs = leaderboard_refresh_all()
    log(f"leaderboard read model: {pairs} pairs refreshed in {time.perf_counter() - started:.1f} s")


def urls(database_url: str) -> list[str]:
    with psycopg.connect(database_url.replace("postgres://", "postgresql://")) as conn:
        q = lambda sql: conn.execute(sql).fetchone()[0]
        run_id = q("SELECT id FROM jobs_run ORDER BY id LIMIT 1 OFFSET 1234")
        item_id = q(f"SELECT id FROM jobs_itemresult WHERE run_id = {run_id} ORDER BY id LIMIT 1")
        job_id = q("SELECT id FROM jobs_job ORDER BY id LIMIT 1")
        bench_id = q("SELECT id FROM catalog_benchmark ORDER BY id LIMIT 1")
    return [
        "/",
        "/?sort=size&dir=asc&org=Org+3",
        "/?page=3",
        "/hipho/",
        "/hipho/exams/ipho-2025/",
        "/hanabi/",
        "/chess/",
        "/models/model-042/",
        f"/benchmarks/{bench_id}/",
        f"/runs/{run_id}/",
        f"/runs/{run_id}/?page=3",
        f"/items/{item_id}/",
        "/jobs/",
        f"/jobs/{job_id}/",
        f"/jobs/{job_id}/progress.json",
        f"/jobs/{job_id}/progress.json?runs=1",
        "/api/leaderboard",
        "/api/leaderboards/hipho",
        "/api/models/model-042",
        f"/api/runs/{run_id}",
        f"/api/runs/{run_id}/items",
        f"/api/items/{item_id}",
        "/api/jobs",
        f"/api/jobs/{job_id}",
    ]


def start_gunicorn(database_url: str, port: int, workers: int, threads: int) -> subprocess.Popen:
    env = django_env(database_url)
    env["DB_CONN_MAX_AGE"] = "600"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "podium.wsgi:application",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(workers),
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/health")
            if c.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("gunicorn did not start")


def load(port: int, paths: list[str], clients: int, per_url: int) -> dict[str, list[float]]:
    """Each client walks the URL list in its own shuffled order; latencies per URL in ms."""
    results: dict[str, list[float]] = {p: [] for p in paths}
    lock = threading.Lock()
    errors: list[str] = []
    rounds = max(1, per_url // clients)

    def client(seed_: int) -> None:
        rng = random.Random(seed_)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(rounds):
            order = paths[:]
            rng.shuffle(order)
            for path in order:
                t0 = time.perf_counter()
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                ms = 1000 * (time.perf_counter() - t0)
                if response.status != 200:
                    errors.append(f"{path}: {response.status}")
                with lock:
                    results[path].append(ms)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(f"{len(errors)} failed requests, e.g. {errors[:3]}")
    return results


CACHED_PAGES = (
    "/",
    "/hipho/",
    "/hipho/exams/ipho-2025/",
    "/hanabi/",
    "/chess/",
    "/models/model-042/",
)


def cold(port: int, repeats: int = 5) -> dict[str, list[float]]:
    """Leaderboard pages rendered from the database (a unique query string misses the page cache)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    out: dict[str, list[float]] = {}
    for path in CACHED_PAGES:
        for i in range(repeats):
            t0 = time.perf_counter()
            conn.request("GET", f"{path}?cold={i}-{random.random()}")
            conn.getresponse().read()
            out.setdefault(path, []).append(1000 * (time.perf_counter() - t0))
    conn.close()
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="podium_bench")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--items", type=int, default=5_000_000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=48, help="requests per URL (after warm-up)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--port", type=int, default=8917)
    parser.add_argument("--reuse", action="store_true", help="keep an already seeded database")
    parser.add_argument("--keep", action="store_true", help="do not drop the database at the end")
    parser.add_argument("--seed-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    database_url = f"postgres://postgres@{args.host}:5432/{args.db}"
    if args.seed_only:
        seed(database_url, args.items)
        return
    if not args.reuse:
        log(f"creating database {args.db}")
        create_database(args.host, args.db)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=django_env(database_url),
            check=True,
        )
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--seed-only",
                "--db",
                args.db,
                "--host",
                args.host,
                "--items",
                str(args.items),
            ],
            cwd=ROOT,
            check=True,
        )
        log(f"seeding took {time.perf_counter() - started:.1f} s")
    else:  # the code may have new migrations since the database was seeded
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=django_env(database_url),
            check=True,
        )
    paths = urls(database_url)
    server = start_gunicorn(database_url, args.port, args.workers, args.threads)
    try:
        load(args.port, paths, args.clients, args.clients)  # warm-up: connections, caches
        started = time.perf_counter()
        results = load(args.port, paths, args.clients, args.requests)
        elapsed = time.perf_counter() - started
        cold_results = cold(args.port)
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)
    total = sum(len(v) for v in results.values())
    print(
        f"\n{args.items:,} item results, {N_MODELS} models x {N_BENCHMARKS} benchmarks; gunicorn "
        f"{args.workers} workers x {args.threads} threads; {args.clients} concurrent clients; "
        f"{total} requests in {elapsed:.1f} s ({total / elapsed:.0f} req/s); cores: {os.cpu_count()}"
    )
    print(f"{'URL':44} {'n':>4} {'median ms':>10} {'p95 ms':>8} {'p95/goal':>9}")
    worst = 0.0
    for path, values in results.items():
        med, q95 = statistics.median(values), p95(values)
        worst = max(worst, q95 / GOAL_MS)
        print(
            f"{path[:44]:44} {len(values):4d} {med:10.1f} {q95:8.1f} {q95 / GOAL_MS:9.2f}"
            f"{'' if q95 <= GOAL_MS else '  over'}"
        )
    all_values = [v for vs in results.values() for v in vs]
    print(
        f"{'all':44} {len(all_values):4d} {statistics.median(all_values):10.1f} {p95(all_values):8.1f} "
        f"{p95(all_values) / GOAL_MS:9.2f}"
    )
    print(f"goal: p95 under {GOAL_MS:.0f} ms per URL; worst p95/goal ratio {worst:.2f}")
    print(
        "\nuncached renders (one client, page cache missed on purpose; cached after the first view):"
    )
    for path, values in cold_results.items():
        print(
            f"{path:44} {len(values):4d} {statistics.median(values):10.1f} {max(values):8.1f} (max)"
        )
    if not args.keep:
        drop_database(args.host, args.db)


if __name__ == "__main__":
    main()
