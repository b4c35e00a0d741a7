"""A player's profile: display time zone, language and email preferences."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    class EmailMode(models.TextChoices):
        MY_MOVE = "my_move", "When it's my move"
        PER_PHASE = "per_phase", "Every phase"
        DIGEST = "digest", "Daily digest"
        OFF = "off", "Off"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    timezone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")
    email_mode = models.CharField(max_length=10, choices=EmailMode.choices,
                                  default=EmailMode.MY_MOVE)
    reminder_hours = models.PositiveSmallIntegerField(
        default=3, help_text="Remind me this many hours before a deadline I have not checked "
                             "in for (0 = never).")
    email_match_events = models.BooleanField(default=True,
                                             help_text="Email me when my matches start and end.")
    email_messages = models.BooleanField(
        default=True, help_text="Email me messages other players send me (set apart from "
                                "phase emails).")
    digest_last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


def new_api_key() -> str:
    import secrets

    return secrets.token_urlsafe(30)


class ApiToken(models.Model):
    """A per-user key for scripts: ``Authorization: Token <key>`` on the JSON API.

    One token per user; regenerating replaces the key (the old one stops working at once).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="api_token")
    key = models.CharField(max_length=64, unique=True, default=new_api_key)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"API token of {self.user}"
