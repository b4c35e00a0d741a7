"""What the player set up to be reached besides email: browser push subscriptions,
webhooks (their own or a match's), the per-channel modes and the private calendar link.
The messages themselves are ``games.Notification`` rows with ``channel`` ``push`` or
``webhook`` (one outbox for every channel)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_secret() -> str:
    return secrets.token_urlsafe(32)


class Mode(models.TextChoices):
    """The same modes as phase emails (``Profile.EmailMode`` without the digest)."""

    MY_MOVE = "my_move", _("When it's my move")
    PER_PHASE = "per_phase", _("Every phase")
    OFF = "off", _("Off")


class ChannelPrefs(models.Model):
    """One row per user who changed anything here (none: the defaults)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="channel_prefs")
    push_mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.MY_MOVE)
    webhook_mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.MY_MOVE)
    calendar_token = models.CharField(max_length=64, blank=True, default="", help_text=(
        "The secret part of the private calendar URL; empty: none yet (or revoked)."))

    def __str__(self) -> str:
        return f"channels of {self.user}"


class PushSubscription(models.Model):
    """A browser's ``PushSubscription.toJSON()``: where to post and the keys to encrypt
    for. Removed by the player, or when the push service answers 404/410."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"push for {self.user} ({self.endpoint[:40]}…)"

    def info(self) -> dict:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Webhook(models.Model):
    """A URL we post to: a player's own (``match`` empty: "my move" / "phase opened" of
    their matches) or a match's (the group's channel: public news only)."""

    class Kind(models.TextChoices):
        JSON = "json", _("JSON (signed)")
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="webhooks")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="webhooks")
    url = models.URLField(max_length=1000)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.JSON)
    secret = models.CharField(max_length=64, default=new_secret, help_text=(
        "Signs JSON deliveries (HMAC-SHA256 of '<timestamp>.<body>')."))
    created_at = models.DateTimeField(auto_now_add=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveSmallIntegerField(default=0, help_text=(
        "Permanent failures in a row; at WEBHOOK_MAX_FAILURES it is disabled."))
    disabled_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True, help_text="Why it was disabled.")

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.kind} webhook of {self.user}" + (f" for match {self.match_id}"
                                                        if self.match_id else "")
