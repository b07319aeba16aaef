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
from datetime import timedelta
from functools import reduce
from operator import or_

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

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
        while not self._wake.wait(interval):
            with self._lock:
                leases = list(self._leases.values())
            if not leases:
                continue
            try:
                self.renew(leases)
            except DatabaseError as exc:
                log.warning("renewing %d leases failed; will retry: %s", len(leases), exc)
            finally:
                # Give the connection back (to the pool, or closed): this thread never ends a
                # "request", so Django would otherwise keep a broken connection for ever.
                try:
                    connection.close()
                except DatabaseError:
                    pass

    @staticmethod
    def renew(leases: list[Lease]) -> None:
        """Extend every lease still held by its token; mark the others lost."""
        until = timezone.now() + timedelta(seconds=settings.PODIUM_ITEM_LEASE_SECONDS)
        for start in range(0, len(leases), _CHUNK):
            chunk = leases[start : start + _CHUNK]
            held = reduce(or_, (Q(pk=x.item_id, claim_token=x.token) for x in chunk))
            renewed = ItemResult.objects.filter(held, state=ItemResult.State.RUNNING).update(
                lease_until=until
            )
            if renewed == len(chunk):
                continue
            still = set(
                ItemResult.objects.filter(held, state=ItemResult.State.RUNNING).values_list(
                    "pk", flat=True
                )
            )
            for lease in chunk:
                if lease.item_id not in still:
                    lease.lost = True


_keeper: LeaseKeeper | None = None
_keeper_lock = threading.Lock()


def keeper() -> LeaseKeeper:
    """This process's keeper (a forked child starts its own; threads do not survive a fork)."""
    global _keeper
    with _keeper_lock:
        if _keeper is None or _keeper.pid != os.getpid():
            _keeper = LeaseKeeper()
        return _keeper
