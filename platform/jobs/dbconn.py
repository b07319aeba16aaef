"""The database connection budget of a worker process, and giving a connection back early.

On PostgreSQL every process draws its connections from one bounded pool (settings:
PODIUM_DB_POOL_SIZE, Django's psycopg pool), so a thread-pool worker with hundreds of items in
flight holds at most that many server connections. A thread takes a connection for a few
queries (claim, cache read, cache write and call log, finish) and gives it back before it waits
on a model, so the pool is shared by all the waiting items instead of one each.
"""

from __future__ import annotations

from django.db import DatabaseError, connection


def pooled() -> bool:
    return bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))


def release_connection() -> None:
    """Return this thread's connection to the pool (no-op without a pool or inside a
    transaction, where closing would abort it)."""
    if not pooled() or connection.in_atomic_block or connection.connection is None:
        return
    try:
        connection.close()
    except DatabaseError:
        pass  # a broken connection is discarded by the pool either way
