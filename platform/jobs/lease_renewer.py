"""The lease renewer: a small process (no Django) that renews the leases of the items its worker
process holds, on PostgreSQL.

Why a process and not a thread: a thread-pool worker runs hundreds of item threads under one
GIL, and when many of them grade or write at once a keeper thread waited seconds for the GIL
(measured: renewals 2.5 s apart with a 0.67 s interval, tests/faults/test_lease_kept_under_load.py)
and the reaper took live items over. This process has its own interpreter and connection.

Why it cannot outlive its worker: it reads its orders on stdin, a pipe whose only writer is
the worker process; when the worker dies (SIGKILL included) the kernel closes that pipe, this
process reads end-of-file and exits, its leases expire and the reaper hands the items on.

Protocol (text lines). stdin: ``+ <item id> <token>`` hold, ``- <item id>`` release.
stdout: ``lost <item id> <token>``: the item no longer carries that token (taken over by another
worker, requeued or failed by the reaper); the worker marks that lease lost. An item the worker
ended itself keeps its token and is not reported. Warnings go to stderr (the worker's log).

    python lease_renewer.py <table> <running state> <lease seconds>   (conninfo: PODIUM_RENEWER_DSN)
"""

from __future__ import annotations

import os
import selectors
import sys
import time
from datetime import UTC, datetime, timedelta


def _warn(message: str) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    print(f"[{stamp}: WARNING/lease-renewer {os.getpid()}] {message}", file=sys.stderr, flush=True)


def main() -> int:
    import psycopg

    table, running, lease_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
    dsn = os.environ.pop("PODIUM_RENEWER_DSN")
    interval = max(lease_s / 3, 0.5)
    held: dict[int, str] = {}
    conn: psycopg.Connection | None = None
    # Rows locked by a transaction (an item of this worker being finished, stalled on the
    # worker's GIL while it holds its row) are skipped, not waited for: one statement renews every
    # lease, and waiting on one row delayed them all. A skipped row is not lost: the plain read
    # (MVCC, never blocked) says whether it still runs under its token.
    renew = (
        f"WITH mine AS (SELECT i.id FROM {table} AS i "  # noqa: S608  (names from the worker)
        "JOIN unnest(%s::bigint[], %s::text[]) AS held(id, token) "
        "ON i.id = held.id AND i.claim_token = held.token "
        "WHERE i.state = %s FOR UPDATE OF i SKIP LOCKED) "
        f"UPDATE {table} AS u SET lease_until = %s FROM mine WHERE u.id = mine.id RETURNING u.id"
    )
    # Rows still under the worker's token: running (skipped because locked), or already ended by
    # the worker itself (its final write commits before it sends "-"; only the worker ends an
    # item under its token, the reaper clears the token). Neither is lost.
    still = (
        f"SELECT i.id FROM {table} AS i "  # noqa: S608
        "JOIN unnest(%s::bigint[], %s::text[]) AS held(id, token) "
        "ON i.id = held.id AND i.claim_token = held.token"
    )
    fd = sys.stdin.fileno()
    os.set_blocking(fd, False)
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    pending = b""
    next_round = time.monotonic() + interval
    last_round = time.monotonic()
    while True:
        for _ in sel.select(max(0.0, next_round - time.monotonic())):
            chunk = os.read(fd, 65536)
            if not chunk:  # the worker is gone
                return 0
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                parts = line.decode().split()
                if len(parts) == 3 and parts[0] == "+":
                    held[int(parts[1])] = parts[2]
                elif len(parts) == 2 and parts[0] == "-":
                    held.pop(int(parts[1]), None)
        now = time.monotonic()
        if now < next_round:
            continue
        next_round = now + interval
        if not held:
            if conn is not None:  # idle: the connection is needed only while items are held
                conn.close()
                conn = None
            last_round = now
            continue
        if now - last_round > 2 * interval:
            _warn(f"lease round {now - last_round:.2f} s after the previous one")
        last_round = now
        ids, tokens = list(held), list(held.values())
        try:
            if conn is None or conn.closed:
                conn = psycopg.connect(dsn, autocommit=True)
            until = datetime.now(UTC) + timedelta(seconds=lease_s)
            renewed = {row[0] for row in conn.execute(renew, [ids, tokens, running, until])}
            if len(renewed) < len(ids):
                rest = [(i, t) for i, t in zip(ids, tokens, strict=True) if i not in renewed]
                renewed |= {
                    row[0]
                    for row in conn.execute(still, [[i for i, _ in rest], [t for _, t in rest]])
                }
        except psycopg.Error as exc:
            _warn(f"renewing {len(ids)} leases failed; will retry: {exc!r}")
            if conn is not None:
                conn.close()
            conn = None
            continue
        took = time.monotonic() - now
        if took > interval / 2:
            _warn(f"renewing {len(ids)} leases took {took:.2f} s (the database is slow)")
        lost = [(i, t) for i, t in zip(ids, tokens, strict=True) if i not in renewed]
        for item_id, token in lost:
            if held.get(item_id) == token:
                del held[item_id]
        if lost:
            sys.stdout.write("".join(f"lost {i} {t}\n" for i, t in lost))
            sys.stdout.flush()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
