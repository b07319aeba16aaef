"""Results reported by others (the HiPhO authors' leaderboard), kept apart from results produced
here: a reported score has a source and a data version, and is never a Run.

A reported model may be linked to a model evaluated here, which enables the per-exam comparison
(our score with its interval beside the reported one).
"""

from __future__ import annotations

from django.db import models

from catalog.models import ModelEntry


class ReportedModel(models.Model):
    name = models.CharField(max_length=200)  # as the source spells it, e.g. "Gemini-2.5-Pro"
    category = models.CharField(max_length=100, blank=True, default="")  # the source's own category
    source = models.CharField(max_length=200)  # e.g. "HiPhO leaderboard (authors' reported scores)"
    version = models.CharField(max_length=50)  # the source's data version, e.g. "2025-09-16"
    linked_model = models.ForeignKey(
        ModelEntry,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reported_as",
        help_text="the model evaluated here that this reported model is",
    )
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["name", "source", "version"], name="reported_model_unique"
            )
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} (reported, {self.source} {self.version})"


class ReportedScore(models.Model):
    """One exam score as reported, in raw points."""

    reported_model = models.ForeignKey(
        ReportedModel, on_delete=models.CASCADE, related_name="scores"
    )
    exam_id = models.CharField(max_length=50)  # our exam id, e.g. "ipho-2025"
    score = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["reported_model", "exam_id"], name="reported_score_unique"
            )
        ]
        ordering = ["exam_id"]

    def __str__(self) -> str:
        return f"{self.reported_model.name} {self.exam_id}: {self.score} (reported)"
