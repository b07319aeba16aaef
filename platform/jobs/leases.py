"""One lease keeper per worker process: a single thread renews the leases of every item the
process holds, however many (hundreds on a thread-pool worker), in one UPDATE per round.

A lease renewed here means "this process is alive": a process that dies stops renewing, its
items' leases expire and the reaper hands them to another worker. A lease lost (taken over by
another worker after a stall, or the job cancelled) is reported to the item's holder through
``Lease.lost`` so it stops spending on the item.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import timedelta
from functools import reduce
from operator import or_

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q
from django.utils import timezone

from jobs.dbconn import pooled
from jobs.models import ItemResult

log = logging.getLogger(__name__)
_CHUNK = 500  # (id, token) pairs per UPDATE


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

    def hold(self, item_id: int, token: str) -> Lease:
        lease = Lease(item_id, token)
        with self._lock:
            self._leases[item_id] = lease
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
                self._thread.start()
        return lease

    def release(self, lease: Lease) -> None:
        with self._lock:
            if self._leases.get(lease.item_id) is lease:
                del self._leases[lease.item_id]

    def held(self) -> int:
        with self._lock:
            return len(self._leases)

    def _run(self) -> None:
        interval = max(settings.PODIUM_ITEM_LEASE_SECONDS / 3, 0.5)
        db = _own_connection()
        while not self._wake.wait(interval):
            with self._lock:
                leases = list(self._leases.values())
            if not leases:
                if db is not connection and db.connection is not None:
                    try:  # idle: the connection is needed only while items are held
                        db.close()
                    except DatabaseError:
                        pass
                continue
            woke = time.monotonic()
            try:
                db.ensure_connection()
                connected = time.monotonic()
                self.renew(leases, db=db)
                took = time.monotonic() - woke
                if took > interval:
                    log.warning(
                        "renewing %d leases took %.2f s (%.2f s to connect)",
                        len(leases),
                        took,
                        connected - woke,
                    )
            except Exception as exc:  # never let the thread die: every lease would expire
                log.warning("renewing %d leases failed; will retry: %r", len(leases), exc)
                # a broken connection is replaced at the next round
                try:
                    db.close()
                except DatabaseError:
                    pass
            finally:
                if db is connection:
                    # Give the connection back (to the pool, or closed): this thread never ends
                    # a "request", so Django would otherwise keep a broken connection for ever.
                    try:
                        connection.close()
                    except DatabaseError:
                        pass

    def renew(self, leases: list[Lease], *, db: BaseDatabaseWrapper | None = None) -> None:
        """Extend every lease still held by its token; mark the others lost."""
        db = db or connection
        if db.vendor == "postgresql":
            held = _renew_postgresql(leases, db)
        else:
            held = _renew_orm(leases)
        with self._lock:
            for lease in leases:
                # (a lease released during the round belongs to an item that has ended)
                if lease.item_id in held or self._leases.get(lease.item_id) is not lease:
                    continue
                if not lease.lost:
                    lease.lost = True
                    log.warning("item %s: lease lost while this worker held it", lease.item_id)


def _own_connection() -> BaseDatabaseWrapper:
    """The keeper's database connection: on PostgreSQL one of its own, outside the process's
    pool, kept open between rounds.

    Why: the pool (PODIUM_DB_POOL_SIZE, 8) is shared with every item thread of the process
    (hundreds on a thread-pool worker); a keeper queueing for it behind them renews late, and a
    lease that expires meanwhile is taken over from a live worker, whose item is then evaluated
    twice. One more connection per worker process is in the README's budget.
    Without a pool (SQLite) the thread's own connection is used, as any thread's."""
    if not pooled():
        return connection
    base = connections[DEFAULT_DB_ALIAS]
    options = {k: v for k, v in base.settings_dict["OPTIONS"].items() if k != "pool"}
    own = {**base.settings_dict, "OPTIONS": options, "CONN_MAX_AGE": None}
    return base.__class__(own, DEFAULT_DB_ALIAS)


def _renew_postgresql(leases: list[Lease], db: BaseDatabaseWrapper) -> set[int]:
    """One statement (one round trip, little Python: the keeper competes for the GIL with
    every item thread) that extends the held leases and says which ones they are."""
    table = db.ops.quote_name(ItemResult._meta.db_table)
    # the expiry counts from now, after any wait for the connection, not from the round's start
    until = timezone.now() + timedelta(seconds=settings.PODIUM_ITEM_LEASE_SECONDS)
    with db.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS i SET lease_until = %s "  # noqa: S608  (no input in the names)
            "FROM unnest(%s::bigint[], %s::text[]) AS held(id, token) "
            "WHERE i.id = held.id AND i.claim_token = held.token AND i.state = %s "
            "RETURNING i.id",
            [
                until,
                [x.item_id for x in leases],
                [x.token for x in leases],
                ItemResult.State.RUNNING,
            ],
        )
        return {row[0] for row in cursor.fetchall()}


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
            held.update(running.values_list("pk", flat=True))
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
