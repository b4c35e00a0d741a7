"""Admin for the daily-challenge attempts and the versus challenges (the matches themselves are
in the games admin)."""

from __future__ import annotations

from django.contrib import admin

from diceslayer.models import Challenge, DailyAttempt


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    list_display = ("day", "user", "score", "rounds", "match", "created_at", "finished_at")
    list_filter = ("day",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "match")
    readonly_fields = ("created_at",)


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("match", "challenger", "opponent", "status", "created_at", "expires_at",
                    "answered_at")
    list_filter = ("status",)
    search_fields = ("challenger__username", "opponent__username")
    raw_id_fields = ("match", "challenger", "opponent", "rematch_of")
