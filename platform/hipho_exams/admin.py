"""Admin for reported HiPhO results: link a reported model to a model evaluated here."""

from django.contrib import admin

from hipho_exams.models import ReportedModel, ReportedScore


class ReportedScoreInline(admin.TabularInline):
    model = ReportedScore
    extra = 0
    readonly_fields = ["exam_id", "score"]
    can_delete = False


@admin.register(ReportedModel)
class ReportedModelAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "linked_model", "source", "version"]
    list_filter = ["source", "version", "category"]
    search_fields = ["name"]
    readonly_fields = ["name", "category", "source", "version", "imported_at"]
    autocomplete_fields = []
    inlines = [ReportedScoreInline]
