"""What can be evaluated: model entries (submitted by staff) and benchmarks."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from evaluators.base import BUILTIN_PREFIX, ModelConfig


class ModelEntry(models.Model):
    """A model as an admin registers it. The API key is never stored: only the NAME of the
    environment variable that holds it on the workers."""

    class Modality(models.TextChoices):
        TEXT = "text", "text"
        VISION = "vision", "text + vision"

    slug = models.SlugField(max_length=100, unique=True)
    display_name = models.CharField(max_length=200)
    litellm_model = models.CharField(
        max_length=200, help_text="litellm model string, e.g. openai/gpt-4o, or builtin/<name>"
    )
    api_base = models.URLField(
        blank=True, default="", help_text="optional OpenAI-compatible base URL"
    )
    api_key_env = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text="NAME of the environment variable holding the key on the workers (never the key)",
    )
    params = models.JSONField(
        default=dict,
        blank=True,
        help_text="generation parameters: temperature, max_tokens, top_p, reasoning_effort, …",
    )
    organisation = models.CharField(max_length=200, blank=True, default="")
    open_weights = models.BooleanField(default=False)
    parameter_count_b = models.FloatField(null=True, blank=True, help_text="billions of parameters")
    modality = models.CharField(max_length=10, choices=Modality.choices, default=Modality.TEXT)
    notes = models.TextField(blank=True, default="")
    active = models.BooleanField(default=True)
    rpm_limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="requests per minute, all workers"
    )
    tpm_limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="tokens per minute, all workers"
    )
    max_concurrency = models.PositiveIntegerField(
        null=True, blank=True, help_text="calls in flight, all workers"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = "model"

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_builtin(self) -> bool:
        return self.litellm_model.startswith(BUILTIN_PREFIX)

    @property
    def vision(self) -> bool:
        return self.modality == self.Modality.VISION

    def to_config(self) -> ModelConfig:
        return ModelConfig(
            slug=self.slug,
            model=self.litellm_model,
            api_base=self.api_base or None,
            api_key_env=self.api_key_env or None,
            params=dict(self.params or {}),
            vision=self.vision,
            max_concurrency=self.max_concurrency,
            rpm=self.rpm_limit,
            tpm=self.tpm_limit,
        )


def validate_family(value: str) -> None:
    """A benchmark's family must be registered (evaluators.registry); the list is not stored
    as choices, so adding a family needs no migration."""
    from evaluators.registry import FAMILIES

    if value not in FAMILIES:
        raise ValidationError(f"unknown family {value!r}; registered: {', '.join(FAMILIES)}")


class Benchmark(models.Model):
    slug = models.CharField(max_length=120, unique=True, help_text="e.g. hipho/ipho-2025")
    name = models.CharField(max_length=200)
    family = models.CharField(
        max_length=10,
        validators=[validate_family],
        help_text="a family slug from evaluators.registry (hipho, hanabi, chess, ...)",
    )
    version = models.CharField(max_length=40, default="1")
    config = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True, default="")
    default_samples = models.PositiveIntegerField(default=1)
    judge = models.ForeignKey(
        ModelEntry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="judged_benchmarks",
        help_text="model used as grader (HiPhO step-level); calls are costed apart",
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["family", "slug"]

    def __str__(self) -> str:
        return self.slug

    @property
    def family_label(self) -> str:
        from evaluators.registry import FAMILIES

        spec = FAMILIES.get(self.family)
        return spec.label if spec else self.family
