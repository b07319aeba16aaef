"""Denormalised read model for the leaderboard pages.

Pages never aggregate raw item rows per request. When a run is aggregated, the engine calls
``leaderboard.services.leaderboard_refresh_run(run_id)``, which copies the slim parts of
Run.metrics into these rows (one per model x benchmark part) and recomputes the per-family
headline of that model.
"""

from __future__ import annotations

from django.db import models

from catalog.models import Benchmark, ModelEntry
from jobs.models import Run


class LeaderboardEntry(models.Model):
    """The latest aggregated result of one model on one benchmark (or one exam of a suite)."""

    model = models.ForeignKey(
        ModelEntry, on_delete=models.CASCADE, related_name="leaderboard_entries"
    )
    benchmark = models.ForeignKey(
        Benchmark, on_delete=models.CASCADE, related_name="leaderboard_entries"
    )
    # "" for a plain benchmark; the exam id for each exam of a HiPhO suite benchmark
    part = models.CharField(max_length=120, blank=True, default="")
    family = models.CharField(max_length=10, db_index=True)
    # grouping inside a family page: hipho exam id, hanabi "self"/"cross", chess task
    group = models.CharField(max_length=120, blank=True, default="")
    label = models.CharField(max_length=200, blank=True, default="")
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="leaderboard_entries")
    score = models.FloatField(null=True, blank=True)
    score_se = models.FloatField(null=True, blank=True)
    score_lo = models.FloatField(null=True, blank=True)
    score_hi = models.FloatField(null=True, blank=True)
    # the score on a 0-100 scale used for the family headline (None: not comparable, e.g. Elo)
    norm = models.FloatField(null=True, blank=True)
    norm_se = models.FloatField(null=True, blank=True)
    # the metrics the tables need, without bulky per-problem data
    summary = models.JSONField(default=dict, blank=True)
    input_tokens = models.BigIntegerField(default=0)
    output_tokens = models.BigIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)  # the model's own cost (cost per point uses it)
    judge_input_tokens = models.BigIntegerField(default=0)
    judge_output_tokens = models.BigIntegerField(default=0)
    judge_cost_usd = models.FloatField(default=0.0)  # shown apart, never added to cost_usd
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["model", "benchmark", "part"], name="entry_unique_per_part"
            )
        ]
        indexes = [models.Index(fields=["family", "group"])]
        verbose_name_plural = "leaderboard entries"

    def __str__(self) -> str:
        part = f" [{self.part}]" if self.part else ""
        return f"{self.model.slug} on {self.benchmark.slug}{part}"


class FamilyScore(models.Model):
    """A model's headline on one family: the mean normalised score over its entries."""

    model = models.ForeignKey(ModelEntry, on_delete=models.CASCADE, related_name="family_scores")
    family = models.CharField(max_length=10)
    score = models.FloatField(null=True, blank=True)
    score_se = models.FloatField(null=True, blank=True)
    n_entries = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["model", "family"], name="family_score_unique")
        ]
        indexes = [models.Index(fields=["family", "score"])]

    def __str__(self) -> str:
        return f"{self.model.slug} {self.family}: {self.score}"
