"""A worker's lease renewer (jobs/lease_renewer.py, a process of its own) must never outlive the
worker: SIGKILL the worker process alone, as the OOM killer would (not its process group), and
the renewer exits, the leases it renewed expire and the reaper gives the items back."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from django.db import connection

from jobs import services
from jobs.models import ItemResult
from tests.fakes.openai_server import Reply
from tests.fixtures.services import wait_for
from tests.requirements import require

pytestmark = pytest.mark.django_db(transaction=True)


def _renewers_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"lease_renewer.py" in cmdline:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has exited (its new parent may not reap it)


def test_the_renewer_exits_when_its_worker_is_killed_alone_and_the_items_are_given_back(
    celery_worker, fake_llm, fake_model, demo_exam
):
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")
    fake_llm.rule = lambda request: Reply(text="The answer is \\boxed{1}.", latency=60.0)
    llm = celery_worker(kind="llm", llm_concurrency=8, beat=False, lease=3)
    celery_worker(kind="cpu", concurrency=1, beat=True, lease=3)  # the reaper
    job = services.job_submit(models=[fake_model], benchmarks=[demo_exam], samples=1)
    items = ItemResult.objects.filter(run__job=job)
    wait_for(
        lambda: items.filter(state="running").count() == job.total_items,
        timeout=60,
        what="every item in flight",
    )
    renewers = wait_for(lambda: _renewers_of(llm.proc.pid), timeout=10, what="the renewer")
    assert len(renewers) == 1, renewers
    # the leases are being renewed while the worker lives (3 s lease, 4 s here)
    wait_for(lambda: fake_llm.counters.in_flight == job.total_items, timeout=30, what="calls")
    time.sleep(4)
    assert items.filter(state="running").count() == job.total_items

    os.kill(llm.proc.pid, signal.SIGKILL)  # the worker process alone
    wait_for(lambda: not _alive(renewers[0]), timeout=10, what="the renewer to exit")
    wait_for(
        lambda: items.filter(state="pending", claim_token="").count() == job.total_items,
        timeout=30,
        what="the reaper to give every item back",
    )
