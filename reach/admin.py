"""The director's view of the channels besides email: push subscriptions and webhooks
(with why one was disabled). The messages themselves are in the outbox (Notifications)."""

from __future__ import annotations

from django.contrib import admin

from reach.models import ChannelPrefs, PushSubscription, Webhook


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "endpoint", "created_at"]
    search_fields = ["user__username", "endpoint"]
    readonly_fields = ["user", "endpoint", "p256dh", "auth", "user_agent", "created_at",
                       "last_ok_at"]


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "match", "url", "failures", "disabled_at"]
    list_filter = ["kind", "disabled_at"]
    search_fields = ["user__username", "url"]
    exclude = ["secret"]  # signs the owner's deliveries: not for display
    readonly_fields = ["created_at", "last_ok_at", "failures"]


@admin.register(ChannelPrefs)
class ChannelPrefsAdmin(admin.ModelAdmin):
    list_display = ["user", "push_mode", "webhook_mode"]
    search_fields = ["user__username"]
    exclude = ["calendar_token"]  # the private calendar URL's secret
