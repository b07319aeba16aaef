from django.contrib import admin, messages
from django.utils import timezone

from api.models import ApiToken
from api.services import api_token_create, api_token_revoke


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "name", "user", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "prefix", "user__username"]
    actions = ["revoke"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["user", "name"]
        return ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["user", "prefix", "created_at", "last_used_at", "revoked_at"]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        token, raw = api_token_create(user=obj.user, name=obj.name)
        obj.pk, obj.prefix, obj.key_hash, obj.created_at = (
            token.pk,
            token.prefix,
            token.key_hash,
            token.created_at,
        )
        obj._state.adding = False
        messages.warning(request, f"New API token (shown only now, copy it): {raw}")

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request, queryset):
        for token in queryset.filter(revoked_at__isnull=True):
            api_token_revoke(token=token)
        self.message_user(request, f"Revoked at {timezone.now():%Y-%m-%d %H:%M}.")
