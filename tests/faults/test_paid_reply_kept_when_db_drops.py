"""The database connection dies while a paid model call is on the wire. When the reply
arrives, the cache and call-log writes must reconnect and store it, not raise (which released
the item and sent the same call again: paid twice)."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from jobs.llm_wiring import CallScope, gateway, scope_set
from jobs.models import CachedResponse, LLMCall
from tests.faults.conftest import PaidLog
from tests.requirements import require

pytestmark = pytest.mark.django_db(transaction=True)


def _conninfo() -> str:
    s = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        dbname=s["NAME"],
        user=s.get("USER") or "postgres",
        password=s.get("PASSWORD") or None,
        host=s.get("HOST") or "127.0.0.1",
        port=s.get("PORT") or 5432,
    )


def test_a_reply_paid_while_the_connection_died_is_stored_once(fake_llm, fake_model):
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        (our_backend,) = cur.fetchone()

    def rule(request):
        # the provider is answering: the worker's database connection is killed meanwhile
        with psycopg.connect(_conninfo(), autocommit=True) as killer:
            killer.execute("SELECT pg_terminate_backend(%s)", (our_backend,))
        return "The answer is \\boxed{42}."

    paid = PaidLog(rule)
    fake_llm.rule = paid
    scope_set(CallScope(run_id=None, item_id=None))
    try:
        completion = gateway().complete(
            [{"role": "user", "content": "db drop test"}], model=fake_model.to_config()
        )
    finally:
        scope_set(None)
    assert "42" in completion.text and not completion.cached
    assert paid.paid == 1
    assert CachedResponse.objects.filter(pk=completion.request_hash).exists()
    assert (
        LLMCall.objects.filter(request_hash=completion.request_hash, cache_hit=False).count() == 1
    )

    # the retry (a resumed item) is answered from the cache: still one billed call
    again = gateway().complete(
        [{"role": "user", "content": "db drop test"}], model=fake_model.to_config()
    )
    assert again.cached and again.text == completion.text and paid.paid == 1
