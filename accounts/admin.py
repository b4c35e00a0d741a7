"""Admin for profiles and API tokens (the director can look up and reset preferences)."""

from __future__ import annotations

from django.contrib import admin

from accounts.models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "is_bot", "timezone", "language", "email_mode", "reminder_hours",
                    "email_match_events")
    list_filter = ("is_bot", "language", "email_mode", "email_match_events")
    actions = ("mark_bot", "unmark_bot")

    @admin.action(description="Mark as bot accounts (a program plays them)")
    def mark_bot(self, request, queryset):
        self.message_user(request, f"Marked {queryset.update(is_bot=True)} bot account(s).")

    @admin.action(description="Unmark: people play these accounts")
    def unmark_bot(self, request, queryset):
        self.message_user(request, f"Unmarked {queryset.update(is_bot=False)} account(s).")
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "scope", "prefix", "created_at", "expires_at",
                    "last_used_at", "revoked_at")
    list_filter = ("scope",)
    search_fields = ("user__username", "name", "prefix")
    raw_id_fields = ("user",)
    readonly_fields = ("prefix", "created_at", "last_used_at")
