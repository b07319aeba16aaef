"""The HTTP half of `make compose-smoke`: talks to a running compose stack through its
published port, the way an operator or a client would. Standard library only, so it runs
on the host without the project's virtualenv.

    python3 scripts/compose_smoke_check.py submit --base http://127.0.0.1:PORT --token T \
        --model smoke-llm --benchmark hipho/podiumdemo-2025 --benchmark ...
    python3 scripts/compose_smoke_check.py progress --base ... --job ID
    python3 scripts/compose_smoke_check.py wait --base ... --job ID --timeout 900
    python3 scripts/compose_smoke_check.py pages --base ... --job ID

Production settings redirect plain HTTP to HTTPS unless a TLS-terminating proxy says the
request came over HTTPS; every request here carries the header such a proxy sets
(X-Forwarded-Proto: https), so what is checked is what a visitor behind the proxy gets.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

PROXY_HEADERS = {"X-Forwarded-Proto": "https", "Host": "localhost"}
# Links that change state or leave the site are never followed by the page check.
SKIP = re.compile(r"/(cancel|resume|logout)/?$|^/admin/(?!login/$)|\.(csv|json)(\?|$)|[?&]format=")


class SmokeError(Exception):
    pass


def request(base: str, path: str, *, token: str = "", body: Any = None,
            timeout: float = 30) -> tuple[int, bytes, str]:
    headers = dict(PROXY_HEADERS)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(urljoin(base, path), data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read(), resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as err:
        return err.code, err.read(), err.headers.get("Content-Type", "")


def api(base: str, path: str, **kw: Any) -> dict[str, Any]:
    status, body, _ = request(base, path, **kw)
    if status >= 400:
        raise SmokeError(f"{path}: HTTP {status}: {body[:300]!r}")
    return json.loads(body)


def job_state(base: str, job: int) -> dict[str, Any]:
    return api(base, f"/api/jobs/{job}")


def cmd_submit(args: argparse.Namespace) -> None:
    body = {"models": args.model, "benchmarks": args.benchmark, "name": "compose smoke"}
    if args.samples:
        body["samples"] = args.samples
    job = api(args.base, "/api/jobs", token=args.token, body=body)
    print(job["id"])
    print(f"submitted job {job['id']}: {job['total_items']} items", file=sys.stderr)


def cmd_progress(args: argparse.Namespace) -> None:
    j = job_state(args.base, args.job)
    print(f"{j['done_items'] + j['failed_items']} {j['total_items']} {j['status']}")


def cmd_wait(args: argparse.Namespace) -> None:
    deadline = time.monotonic() + args.timeout
    while True:
        j = job_state(args.base, args.job)
        if j["status"] in ("done", "cancelled") or time.monotonic() > deadline:
            break
        time.sleep(2)
    if j["status"] != "done":
        raise SmokeError(f"job {args.job} is {j['status']} after {args.timeout}s: "
                         f"{j['done_items']}/{j['total_items']} done, {j['failed_items']} failed")
    # Nothing lost, nothing twice: every run holds exactly the items it was planned with, each
    # graded once; none failed.
    problems = []
    families = set()
    for run in j["runs"]:
        families.add(run["family"])
        items = []
        page = 1
        while True:
            data = api(args.base, f"/api/runs/{run['id']}/items?per_page=100&page={page}")
            items += data["results"]
            if page >= data["pages"]:
                break
            page += 1
        keys = [(i["key"], i["sample_index"]) for i in items]
        not_done = [i for i in items if i["state"] != "done"]
        if len(items) != run["total_items"] or len(set(keys)) != len(keys):
            problems.append(f"run {run['id']}: {len(items)} items stored for {run['total_items']} "
                            f"planned, {len(keys) - len(set(keys))} duplicated")
        if not_done or run["failed_items"] or run["status"] != "done":
            errors = {i["error"][:120] for i in not_done if i.get("error")}
            problems.append(f"run {run['id']} ({run['benchmark']}): status {run['status']}, "
                            f"{len(not_done)} items not done {sorted(errors)[:3]}")
        if run["score"] is None:
            problems.append(f"run {run['id']} ({run['benchmark']}): no aggregate score")
    missing = set(args.family or []) - families
    if missing:
        problems.append(f"no run of famil{'ies' if len(missing) > 1 else 'y'} {sorted(missing)}")
    if j["failed_items"] or j["done_items"] != j["total_items"]:
        problems.append(f"job: {j['done_items']}/{j['total_items']} done, {j['failed_items']} failed")
    if problems:
        raise SmokeError("; ".join(problems))
    print(f"job {args.job} done: {j['total_items']} items in {len(j['runs'])} runs "
          f"({', '.join(sorted(families))}), each stored once, none failed")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and ((tag == "a" and name == "href") or (tag in ("link", "script")
                                                                and name in ("href", "src"))):
                self.links.append(value)


def cmd_pages(args: argparse.Namespace) -> None:
    """Every page linked from the overview, the job's page and the pages of its runs, one item
    of each run, the admin login and the API schema answer 200; so do the static files they
    load (production serves them from collectstatic's manifest)."""
    j = job_state(args.base, args.job)
    seeds = ["/", f"/jobs/{args.job}/", "/admin/login/", "/api/openapi.json", "/api/leaderboard"]
    for run in j["runs"]:
        seeds.append(f"/runs/{run['id']}/")
        items = api(args.base, f"/api/runs/{run['id']}/items?per_page=1")["results"]
        seeds += [f"/items/{i['id']}/" for i in items]
    seen: dict[str, int] = {}
    queue = list(seeds)
    expand = set(["/", f"/jobs/{args.job}/"])  # follow links one level from these
    while queue and len(seen) < args.max_pages:
        path = queue.pop(0)
        if path in seen:
            continue
        status, body, ctype = request(args.base, path)
        seen[path] = status
        if path in expand and status == 200 and "html" in ctype:
            parser = Links()
            parser.feed(body.decode("utf-8", "replace"))
            for link in parser.links:
                parts = urlsplit(link)
                if parts.scheme or parts.netloc or not parts.path.startswith("/"):
                    continue
                target = parts.path + (f"?{parts.query}" if parts.query else "")
                if not SKIP.search(target) and target not in seen:
                    queue.append(target)
    bad = {p: s for p, s in seen.items() if s != 200}
    static = [p for p in seen if p.startswith("/static/")]
    print(f"{len(seen)} pages and files fetched ({len(static)} static), "
          f"{len(seen) - len(bad)} answered 200")
    if not static:
        bad["(no /static/ file linked from the pages)"] = 0
    if bad:
        raise SmokeError("not 200: " + ", ".join(f"{p} -> {s}" for p, s in sorted(bad.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("submit", "progress", "wait", "pages"):
        p = sub.add_parser(name)
        p.add_argument("--base", required=True, help="http://127.0.0.1:PORT")
        if name == "submit":
            p.add_argument("--token", required=True)
            p.add_argument("--model", action="append", required=True)
            p.add_argument("--benchmark", action="append", required=True)
            p.add_argument("--samples", type=int, default=None)
        else:
            p.add_argument("--job", type=int, required=True)
        if name == "wait":
            p.add_argument("--timeout", type=float, default=900)
            p.add_argument("--family", action="append", help="a family the job must cover")
        if name == "pages":
            p.add_argument("--max-pages", type=int, default=120)
    args = parser.parse_args()
    try:
        {"submit": cmd_submit, "progress": cmd_progress, "wait": cmd_wait,
         "pages": cmd_pages}[args.cmd](args)
    except (SmokeError, urllib.error.URLError, OSError) as err:
        print(f"compose smoke: {args.cmd}: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
