"""What a worker loads before it consumes: the LLM-queue worker preloads the gateway (litellm,
before any pool forks), the CPU-queue worker does not (litellm is 2.4 of its 3.3 s of start-up
CPU, paid at every restart of a host, and its items rarely call a model)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def _litellm_loaded(pid: int) -> bool:
    # litellm ships a native extension (litellm/rust_bridge): mapped once litellm is imported
    return "/litellm/" in Path(f"/proc/{pid}/maps").read_text()


def test_only_the_llm_queue_worker_preloads_litellm(celery_worker):
    cpu = celery_worker(kind="cpu", concurrency=1, beat=False)
    llm = celery_worker(kind="llm", llm_concurrency=2, beat=False)
    assert _litellm_loaded(llm.proc.pid)
    assert not _litellm_loaded(cpu.proc.pid)
