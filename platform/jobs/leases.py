"""One lease keeper per worker process: the leases of every item the process holds, however many
(hundreds on a thread-pool worker), are renewed together in one UPDATE per round.

A lease renewed here means "this process is alive": a process that dies stops renewing, its
items' leases expire and the reaper hands them to another worker. A lease lost (taken over by
another worker after a stall, or the job cancelled) is reported to the item's holder through
``Lease.lost`` so it stops spending on the item.

On PostgreSQL the renewing is done by a small process of the worker's own (jobs/lease_renewer.py,
with its own interpreter and connection): a thread here shared the GIL and the connection pool
with the item threads, and under load renewed seconds late, so that live items were taken over
(tests/faults/test_lease_kept_under_load.py). The renewer exits when its worker dies. Without
PostgreSQL (the SQLite demo) a thread renews, on the thread's own connection.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from datetime import timedelta
from functools import reduce
from operator import or_
from pathlib import Path
from typing import IO

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.models import Q
from django.utils import timezone

from jobs.models import ItemResult

log = logging.getLogger(__name__)
_CHUNK = 500  # (id, token) pairs per UPDATE (the thread keeper)
_RENEWER = Path(__file__).with_name("lease_renewer.py")
# libpq parameters a deployment may put in the database OPTIONS (the renewer connects with libpq)
_LIBPQ_OPTIONS = (
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
    "sslpassword",
    "connect_timeout",
    "options",
    "application_name",
    "target_session_attrs",
    "service",
    "passfile",
)


class Lease:
    __slots__ = ("item_id", "token", "lost")

    def __init__(self, item_id: int, token: str) -> None:
        self.item_id, self.token, self.lost = item_id, token, False


class LeaseKeeper:
    def __init__(self) -> None:
        self.pid = os.getpid()
        self._leases: dict[int, Lease] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._renewer: subprocess.Popen | None = None

    def hold(self, item_id: int, token: str) -> Lease:
        lease = Lease(item_id, token)
        with self._lock:
            self._leases[item_id] = lease
            if connection.vendor == "postgresql":
                self._order(f"+ {item_id} {token}\n")
            elif self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
                self._thread.start()
        return lease

    def release(self, lease: Lease) -> None:
        with self._lock:
            if self._leases.get(lease.item_id) is lease:
                del self._leases[lease.item_id]
                if self._renewer is not None:
                    self._order(f"- {lease.item_id}\n")

    def held(self) -> int:
        with self._lock:
            return len(self._leases)

    # --- the renewer process (PostgreSQL) ------------------------------------------------

    def _order(self, line: str) -> None:
        """Send an order to the renewer (under self._lock), starting it (again) if need be."""
        if self._renewer is None or self._renewer.poll() is not None:
            self._start_renewer()
            return  # the new renewer was given every lease held, this one included
        try:
            stdin: IO[str] = self._renewer.stdin  # type: ignore[assignment]
            stdin.write(line)
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            log.warning("the lease renewer went away; starting another")
            self._start_renewer()

    def _start_renewer(self) -> None:
        if self._renewer is not None and self._renewer.poll() is None:
            self._renewer.kill()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-P",  # not its folder on sys.path: jobs/selectors.py would shadow the stdlib's
                str(_RENEWER),
                connection.ops.quote_name(ItemResult._meta.db_table),
                ItemResult.State.RUNNING,
                str(settings.PODIUM_ITEM_LEASE_SECONDS),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PODIUM_RENEWER_DSN": _conninfo()},
            text=True,
            close_fds=True,
        )
        self._renewer = proc
        assert proc.stdin is not None
        proc.stdin.write("".join(f"+ {x.item_id} {x.token}\n" for x in self._leases.values()))
        proc.stdin.flush()
        threading.Thread(
            target=self._read_lost, args=(proc,), name="lease-renewer-reader", daemon=True
        ).start()

    def _read_lost(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            parts = line.split()
            if len(parts) != 3 or parts[0] != "lost":
                continue
            item_id, token = int(parts[1]), parts[2]
            with self._lock:
                lease = self._leases.get(item_id)
                # (a lease released meanwhile belongs to an item that has ended)
                if lease is None or lease.token != token or lease.lost:
                    continue
                lease.lost = True
            log.warning("item %s: lease lost while this worker held it", item_id)
        with self._lock:  # it died with leases to renew (not replaced, not told to stop)
            if self._renewer is proc and self._leases:
                log.warning("the lease renewer exited (%s); starting another", proc.wait())
                self._start_renewer()

    # --- the thread keeper (no PostgreSQL) -----------------------------------------------

    def _run(self) -> None:
        interval = max(settings.PODIUM_ITEM_LEASE_SECONDS / 3, 0.5)
        while not self._wake.wait(interval):
            with self._lock:
                leases = list(self._leases.values())
            if not leases:
                continue
            try:
                self.renew(leases)
            except Exception as exc:  # never let the thread die: every lease would expire
                log.warning("renewing %d leases failed; will retry: %r", len(leases), exc)
            finally:
                # Give the connection back (closed): this thread never ends a "request", so
                # Django would otherwise keep a broken connection for ever.
                try:
                    connection.close()
                except DatabaseError:
                    pass

    def renew(self, leases: list[Lease]) -> None:
        """Extend every lease still held by its token; mark the others lost."""
        held = _renew_orm(leases)
        with self._lock:
            for lease in leases:
                # (a lease released during the round belongs to an item that has ended)
                if lease.item_id in held or self._leases.get(lease.item_id) is not lease:
                    continue
                if not lease.lost:
                    lease.lost = True
                    log.warning("item %s: lease lost while this worker held it", lease.item_id)


def _conninfo() -> str:
    """libpq connection string of the default database, for the renewer (in its environment,
    never on its command line: the password is in it)."""
    from psycopg.conninfo import make_conninfo

    s = connections[DEFAULT_DB_ALIAS].settings_dict
    params = {
        "dbname": s.get("NAME"),
        "user": s.get("USER"),
        "password": s.get("PASSWORD"),
        "host": s.get("HOST"),
        "port": s.get("PORT"),
    }
    options = s.get("OPTIONS") or {}
    params.update({k: options[k] for k in _LIBPQ_OPTIONS if k in options})
    return make_conninfo(**{k: str(v) for k, v in params.items() if v not in (None, "")})


def _renew_orm(leases: list[Lease]) -> set[int]:
    until = timezone.now() + timedelta(seconds=settings.PODIUM_ITEM_LEASE_SECONDS)
    held: set[int] = set()
    for start in range(0, len(leases), _CHUNK):
        chunk = leases[start : start + _CHUNK]
        mine = reduce(or_, (Q(pk=x.item_id, claim_token=x.token) for x in chunk))
        running = ItemResult.objects.filter(mine, state=ItemResult.State.RUNNING)
        renewed = running.update(lease_until=until)
        if renewed == len(chunk):
            held.update(x.item_id for x in chunk)
        else:
            # an item this worker has just ended keeps its token until the worker lets go of it:
            # not lost (only the reaper or another claim takes the token away)
            held.update(ItemResult.objects.filter(mine).values_list("pk", flat=True))
    return held


_keeper: LeaseKeeper | None = None
_keeper_lock = threading.Lock()


def keeper() -> LeaseKeeper:
    """This process's keeper (a forked child starts its own; threads do not survive a fork)."""
    global _keeper
    with _keeper_lock:
        if _keeper is None or _keeper.pid != os.getpid():
            _keeper = LeaseKeeper()
        return _keeper
