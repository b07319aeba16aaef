"""Deleting a run (or its job) rebuilds the model's entries and family headline from what is left."""

import pytest

from catalog.models import ModelEntry
from jobs import services
from jobs.models import ItemResult
from jobs.runner import execute_item
from leaderboard.models import FamilyScore, LeaderboardEntry

pytestmark = pytest.mark.django_db(transaction=True)


def _run_job(model, bench):
    job = services.job_submit(models=[model], benchmarks=[bench], samples=1)
    for item in ItemResult.objects.filter(run__job=job):
        execute_item(item.pk, services.item_claim(item_id=item.pk))
    return job


def test_it_drops_the_entries_of_a_deleted_job(catalog, demo_exam):
    reference = ModelEntry.objects.get(litellm_model="builtin/reference")
    first = _run_job(reference, demo_exam)
    second = _run_job(reference, demo_exam)
    entry = LeaderboardEntry.objects.get(model=reference, benchmark=demo_exam)
    assert entry.run.job_id == second.pk
    second.delete()
    entry = LeaderboardEntry.objects.get(model=reference, benchmark=demo_exam)
    assert entry.run.job_id == first.pk
    first.delete()
    assert not LeaderboardEntry.objects.filter(model=reference).exists()
    assert not FamilyScore.objects.filter(model=reference).exists()
