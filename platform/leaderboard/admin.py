from django.contrib import admin

from leaderboard.models import FamilyScore, LeaderboardEntry
from leaderboard.services import leaderboard_refresh_pair


@admin.register(LeaderboardEntry)
class LeaderboardEntryAdmin(admin.ModelAdmin):
    list_display = [
        "model",
        "benchmark",
        "part",
        "family",
        "group",
        "score",
        "score_se",
        "norm",
        "run",
        "updated_at",
    ]
    list_filter = ["family"]
    search_fields = ["model__slug", "benchmark__slug", "part"]
    readonly_fields = [f.name for f in LeaderboardEntry._meta.fields]
    actions = ["refresh"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Rebuild from the latest aggregated run")
    def refresh(self, request, queryset):
        pairs = set(queryset.values_list("model_id", "benchmark_id"))
        for model_id, benchmark_id in pairs:
            leaderboard_refresh_pair(model_id=model_id, benchmark_id=benchmark_id)
        self.message_user(request, f"Rebuilt {len(pairs)} model/benchmark pair(s).")


@admin.register(FamilyScore)
class FamilyScoreAdmin(admin.ModelAdmin):
    list_display = ["model", "family", "score", "score_se", "n_entries", "updated_at"]
    list_filter = ["family"]
    readonly_fields = [f.name for f in FamilyScore._meta.fields]

    def has_add_permission(self, request):
        return False
