"""The process that finishes a run's last item is SIGKILLed during the run's final aggregation.
Every item is final, none is left to finish and resume finds nothing to re-run: the reaper of a
real worker (beat) must find the run and finish it and its job, once."""

from __future__ import annotations

import signal

from catalog.models import ModelEntry
from jobs import queue, services
from jobs.models import Job, Run
from tests.engine_races.conftest import django_process
from tests.fixtures.services import wait_for

FINISH_THEN_DIE_IN_AGGREGATION = """
import os, signal
from jobs import queue, services
from jobs.models import ItemResult
from jobs.runner import execute_item

def killed(**kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

services.run_aggregate = killed          # the kill lands inside the final aggregation
for item_id in ItemResult.objects.filter(run__job_id=int(sys.argv[1])).values_list("pk", flat=True):
    token = services.item_claim(item_id=item_id)
    print(execute_item(item_id, token), flush=True)
"""


def test_the_reaper_finishes_a_run_whose_final_aggregation_was_killed(
    postgres, demo_exam, celery_worker, monkeypatch
):
    monkeypatch.setattr(queue, "enqueue_dispatch", lambda job_id: None)  # the subprocess runs it
    reference = ModelEntry.objects.get(litellm_model="builtin/reference")
    job = services.job_submit(models=[reference], benchmarks=[demo_exam], samples=1)
    run = job.runs.get()

    proc = django_process(FINISH_THEN_DIE_IN_AGGREGATION.replace("sys.argv[1]", str(job.pk)))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL, err
    run.refresh_from_db()
    job.refresh_from_db()
    assert run.done_items + run.failed_items == run.total_items  # every item is final ...
    assert run.status == Run.Status.RUNNING and run.aggregated_at is None  # ... and stuck
    assert job.status == Job.Status.RUNNING
    assert services.job_resume(job=job) == 0  # nothing for a resume to do

    celery_worker(concurrency=1, beat=True, reaper=0.5)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=60,
        what="the reaper to finish the job",
    )
    run.refresh_from_db()
    assert run.status == Run.Status.DONE and run.aggregated_at is not None
    assert run.metrics and run.score is not None
    aggregated_at = run.aggregated_at
    assert services.items_reap()["repaired"] == 0  # idempotent: nothing left to repair
    run.refresh_from_db()
    assert run.aggregated_at == aggregated_at
