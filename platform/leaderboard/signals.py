"""Keep the read model true: refresh it when the engine aggregates a run, and when results are
deleted (a bad run removed in the admin)."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from catalog.models import Benchmark, ModelEntry
from jobs.models import Run
from jobs.signals import run_aggregated


@receiver(run_aggregated, dispatch_uid="leaderboard-run-aggregated")
def run_aggregated_refresh(sender, run_id: int, **kwargs) -> None:
    from leaderboard.services import leaderboard_refresh_run

    leaderboard_refresh_run(run_id)


@receiver(post_delete, sender=Run, dispatch_uid="leaderboard-run-deleted")
def run_deleted(sender, instance: Run, **kwargs) -> None:
    model_id, benchmark_id = instance.model_id, instance.benchmark_id

    def refresh() -> None:
        from leaderboard.services import leaderboard_refresh_pair

        # the model or benchmark may be going away in the same delete
        if (
            ModelEntry.objects.filter(pk=model_id).exists()
            and Benchmark.objects.filter(pk=benchmark_id).exists()
        ):
            leaderboard_refresh_pair(model_id=model_id, benchmark_id=benchmark_id)

    transaction.on_commit(refresh)
