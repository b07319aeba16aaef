from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmark_validate_config, model_key_warning
from catalog.validation import (
    validate_api_base,
    validate_api_key_env,
    validate_model_string,
    validate_params,
)

# A run executes the model string, parameters and judge frozen into its spec at submission
# (jobs.spec, jobs.runner.run_models), so an edit here never changes a submitted job.
NEW_JOBS_ONLY = (
    "Edits to the model string, parameters or modality apply to jobs submitted from "
    "now on; submitted and resumed runs keep the ones recorded in their spec."
)


class ModelEntryForm(forms.ModelForm):
    api_base = forms.URLField(
        required=False,
        assume_scheme="https",
        label="API base URL",
        help_text="optional OpenAI-compatible base URL",
    )

    class Meta:
        model = ModelEntry
        exclude = ["created_by"]
        # the words people use, not the column names (labels only: no migration)
        labels = {
            "litellm_model": "litellm model string",
            "api_key_env": "API key variable",
            "parameter_count_b": "parameters (billions)",
            "rpm_limit": "requests per minute",
            "tpm_limit": "tokens per minute",
            "max_concurrency": "calls in flight",
            "display_name": "display name",
            "open_weights": "open weights",
        }
        help_texts = {
            "params": "generation parameters: temperature, max_tokens, top_p, "
            "reasoning_effort, … " + NEW_JOBS_ONLY
        }

    def clean_litellm_model(self):
        value = self.cleaned_data["litellm_model"].strip()
        validate_model_string(value)
        return value

    def clean_api_base(self):
        value = self.cleaned_data.get("api_base", "").strip()
        validate_api_base(value)
        return value

    def clean_api_key_env(self):
        value = self.cleaned_data.get("api_key_env", "").strip()
        validate_api_key_env(value)
        return value

    def clean_params(self):
        value = self.cleaned_data.get("params") or {}
        validate_params(value)
        return value


@admin.register(ModelEntry)
class ModelEntryAdmin(admin.ModelAdmin):
    form = ModelEntryForm
    list_display = [
        "display_name",
        "slug",
        "litellm_model",
        "organisation",
        "open_weights",
        "modality",
        "active",
    ]
    list_filter = ["active", "open_weights", "modality", "organisation"]
    search_fields = ["display_name", "slug", "litellm_model", "organisation"]
    prepopulated_fields = {"slug": ["display_name"]}

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        if change and {"litellm_model", "params", "modality"} & set(form.changed_data):
            self.message_user(request, NEW_JOBS_ONLY, level=messages.INFO)
        warning = model_key_warning(obj)
        if warning:
            self.message_user(request, warning, level=messages.WARNING)


class BenchmarkForm(forms.ModelForm):
    class Meta:
        model = Benchmark
        fields = "__all__"
        labels = {
            "default_samples": "default samples",
            "judge": "judge model (HiPhO step-level grader)",
        }

    def clean(self):
        cleaned = super().clean()
        family, config = cleaned.get("family"), cleaned.get("config")
        if family and config is not None:
            try:
                cleaned["config"] = benchmark_validate_config(family=family, config=config)
            except ValidationError as exc:
                self.add_error("config", exc)
        return cleaned


@admin.register(Benchmark)
class BenchmarkAdmin(admin.ModelAdmin):
    form = BenchmarkForm
    list_display = ["slug", "name", "family", "version", "default_samples", "judge", "active"]
    list_filter = ["family", "active"]
    search_fields = ["slug", "name"]
