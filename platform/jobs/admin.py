"""Staff submit, cancel and resume jobs here; the work itself goes through jobs.services."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from catalog.models import Benchmark, ModelEntry
from evaluators.registry import FAMILIES
from jobs.models import ItemResult, Job, LLMCall, Run
from jobs.services import job_cancel, job_resume, job_submit


class FamilySelectMultiple(forms.SelectMultiple):
    """Each option carries its benchmark's family, so the picker can be narrowed to one family
    (static/js/admin_benchmarks.js): a list of 30+ benchmarks stays usable."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        instance = getattr(value, "instance", None)
        if instance is not None:
            option["attrs"]["data-family"] = instance.family
        return option


class JobSubmitForm(forms.Form):
    name = forms.CharField(required=False, max_length=200)
    models = forms.ModelMultipleChoiceField(queryset=ModelEntry.objects.filter(active=True))
    benchmarks = forms.ModelMultipleChoiceField(
        queryset=Benchmark.objects.filter(active=True).order_by("family", "slug"),
        widget=FamilySelectMultiple(attrs={"size": 14, "data-family-filter": "1"}),
        help_text="narrow the list with the family filter above it; Ctrl/Cmd-click picks several",
    )
    samples = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=10000,
        help_text="samples per problem / seeds per configuration; empty = each benchmark's default",
    )


_RUN_INLINE_FIELDS = (
    "model",
    "benchmark",
    "status",
    "done_items",
    "failed_items",
    "total_items",
    "score",
    "score_se",
    "cost_usd",
)


class RunInline(admin.TabularInline):
    model = Run
    extra = 0
    can_delete = False
    fields = _RUN_INLINE_FIELDS
    readonly_fields = _RUN_INLINE_FIELDS
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "name",
        "status",
        "done_items",
        "failed_items",
        "total_items",
        "submitted_by",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status"]
    readonly_fields = [
        "status",
        "samples",
        "params_override",
        "submitted_by",
        "total_items",
        "done_items",
        "failed_items",
        "created_at",
        "started_at",
        "finished_at",
    ]
    inlines = [RunInline]
    actions = ["cancel_jobs", "resume_jobs"]

    def get_urls(self):
        return [
            path("submit/", self.admin_site.admin_view(self.submit_view), name="jobs_job_submit"),
        ] + super().get_urls()

    def add_view(self, request, form_url="", extra_context=None):
        return redirect("admin:jobs_job_submit")

    def submit_view(self, request):
        if not (request.user.is_staff and self.has_add_permission(request)):
            raise PermissionDenied
        form = JobSubmitForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                job = job_submit(
                    models=list(form.cleaned_data["models"]),
                    benchmarks=list(form.cleaned_data["benchmarks"]),
                    samples=form.cleaned_data["samples"],
                    submitted_by=request.user,
                    name=form.cleaned_data["name"],
                )
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                self.message_user(request, f"Submitted {job} with {job.total_items} items.")
                return redirect(reverse("leaderboard:job", args=[job.pk]))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "title": "Submit a job",
            "opts": self.model._meta,
            "families": [(slug, spec.label) for slug, spec in FAMILIES.items()],
        }
        return TemplateResponse(request, "admin/jobs/job/submit.html", context)

    @admin.action(description="Cancel selected jobs", permissions=["change"])
    def cancel_jobs(self, request, queryset):
        for job in queryset:
            job_cancel(job=job)
        self.message_user(request, f"Cancelled {queryset.count()} job(s).")

    @admin.action(
        description="Resume selected jobs (re-run failed and cancelled items)",
        permissions=["change"],
    )
    def resume_jobs(self, request, queryset):
        total = sum(job_resume(job=job) for job in queryset)
        self.message_user(request, f"Re-queued {total} item(s).", level=messages.INFO)


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "model",
        "benchmark",
        "job",
        "status",
        "score",
        "score_se",
        "done_items",
        "failed_items",
        "total_items",
    ]
    list_filter = ["status", "benchmark__family"]
    readonly_fields = [f.name for f in Run._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(ItemResult)
class ItemResultAdmin(admin.ModelAdmin):
    list_display = ["id", "run", "item_key", "sample_index", "state", "score", "attempts"]
    list_filter = ["state"]
    readonly_fields = [f.name for f in ItemResult._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(LLMCall)
class LLMCallAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "model",
        "purpose",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "latency_ms",
        "retries",
        "error_class",
        "cache_hit",
        "created_at",
    ]
    list_filter = ["purpose", "cache_hit", "error_class"]
    readonly_fields = [f.name for f in LLMCall._meta.fields]

    def has_add_permission(self, request):
        return False
