"""Batches of evaluation work and everything they produce."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from catalog.models import Benchmark, ModelEntry


class Job(models.Model):
    """A batch: models x benchmarks, each pair a Run, each Run many items."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"  # every item ended (some may have failed)
        CANCELLED = "cancelled"

    name = models.CharField(max_length=200, blank=True, default="")
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    samples = models.PositiveIntegerField(
        default=1, help_text="samples per problem / seeds per configuration"
    )
    params_override = models.JSONField(default=dict, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="podium_jobs",
    )
    total_items = models.PositiveIntegerField(default=0)
    done_items = models.PositiveIntegerField(default=0)
    failed_items = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name or f"job {self.pk}"

    @property
    def ended_items(self) -> int:
        return self.done_items + self.failed_items

    @property
    def progress(self) -> float:
        return self.ended_items / self.total_items if self.total_items else 0.0


class Run(models.Model):
    """One model on one benchmark inside a job, with the full spec that produced it."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        CANCELLED = "cancelled"

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="runs")
    model = models.ForeignKey(ModelEntry, on_delete=models.PROTECT, related_name="runs")
    benchmark = models.ForeignKey(Benchmark, on_delete=models.PROTECT, related_name="runs")
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    # benchmark version, prompt template hash, grader version, model params, code version, config
    spec = models.JSONField(default=dict)
    spec_hash = models.CharField(max_length=64, db_index=True, blank=True, default="")
    metrics = models.JSONField(default=dict, blank=True)
    score = models.FloatField(null=True, blank=True, help_text="headline number, from metrics")
    score_se = models.FloatField(null=True, blank=True)
    total_items = models.PositiveIntegerField(default=0)
    done_items = models.PositiveIntegerField(default=0)
    failed_items = models.PositiveIntegerField(default=0)
    input_tokens = models.BigIntegerField(default=0)
    output_tokens = models.BigIntegerField(default=0)
    reasoning_tokens = models.BigIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)
    judge_cost_usd = models.FloatField(default=0.0)
    # the judge's usage, never counted as the model's (input_tokens/output_tokens/cost_usd)
    judge_input_tokens = models.BigIntegerField(default=0)
    judge_output_tokens = models.BigIntegerField(default=0)
    cost_unknown_calls = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    aggregated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "model", "benchmark"], name="run_unique_per_job")
        ]
        indexes = [models.Index(fields=["benchmark", "model", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.model.slug} on {self.benchmark.slug} (job {self.job_id})"


class ItemResult(models.Model):
    """One graded unit: a problem sample, a game, a position. Unique per (run, key, sample)."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="items")
    item_key = models.CharField(max_length=200)
    sample_index = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    claim_token = models.CharField(max_length=64, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    score = models.FloatField(null=True, blank=True)
    scores = models.JSONField(default=dict, blank=True)
    details = models.JSONField(default=dict, blank=True)
    transcript = models.JSONField(default=list, blank=True)
    checkpoint = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["run", "item_key", "sample_index"], name="item_unique_per_run"
            )
        ]
        indexes = [
            models.Index(fields=["run", "state"]),
            models.Index(fields=["state", "lease_until"]),
        ]

    def __str__(self) -> str:
        return f"{self.item_key}#{self.sample_index}"


class LLMCall(models.Model):
    """One model call as the gateway saw it (including cache hits and failures)."""

    run = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.CASCADE, related_name="calls"
    )
    item = models.ForeignKey(
        ItemResult, null=True, blank=True, on_delete=models.CASCADE, related_name="calls"
    )
    purpose = models.CharField(max_length=10, default="model")  # model | judge
    request_hash = models.CharField(max_length=64, db_index=True)
    model = models.CharField(max_length=200)
    messages = models.JSONField(default=list)  # bounded in size by the gateway
    reply = models.TextField(blank=True, default="")  # bounded in size
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    reasoning_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.FloatField(null=True, blank=True)
    cost_known = models.BooleanField(default=True)
    latency_ms = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=1)
    retries = models.PositiveIntegerField(default=0)
    retry_reasons = models.JSONField(
        default=list, blank=True, help_text="error class of each failed attempt"
    )
    sample_index = models.PositiveIntegerField(default=0)
    finish_reason = models.CharField(max_length=40, blank=True, default="")
    total_ms = models.PositiveIntegerField(
        default=0, help_text="call to return, waits and retries included"
    )
    error_class = models.CharField(max_length=100, blank=True, default="")
    error_message = models.TextField(blank=True, default="")
    cache_hit = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["run", "purpose"])]


class CachedResponse(models.Model):
    """The response cache: a finished call, keyed by hash(model, messages, params, sample index).
    Written the moment the call succeeds, so a worker killed afterwards never pays for it again."""

    request_hash = models.CharField(max_length=64, primary_key=True)
    model = models.CharField(max_length=200)
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
