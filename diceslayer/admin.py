"""Admin for the daily-challenge attempts (the matches themselves are in the games admin)."""

from __future__ import annotations

from django.contrib import admin

from diceslayer.models import DailyAttempt


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    list_display = ("day", "user", "score", "rounds", "match", "created_at", "finished_at")
    list_filter = ("day",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "match")
    readonly_fields = ("created_at",)
