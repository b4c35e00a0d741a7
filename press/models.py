"""Press data: a match's press settings, its messages (each stored once with its channel
and audience, like the diary), read marks for unread counts, mutes, reports and the
per-conversation email marks that coalesce emails. Rules live in ``press.access`` and
``press.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_lazy as _

from games.models import Match, Phase, Seat

MAX_LENGTH = 2000


class PressRules(models.TextChoices):
    FULL = "full", _("Full press: public board, private and team channels")
    PUBLIC = "public", _("Public board only")
    NONE = "none", _("No press (director announcements only)")


class DeadRule(models.TextChoices):
    READ_ONLY = "read_only", _("Dead players read their channels but cannot write")
    PUBLIC_ONLY = "public_only", _("Dead players read and write the public board only")


class MatchPress(models.Model):
    """How a match's players may talk; a match without a row uses the game's default."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE,
                                 related_name="press")
    rules = models.CharField(max_length=10, choices=PressRules.choices)
    dead = models.CharField(max_length=12, choices=DeadRule.choices,
                            default=DeadRule.READ_ONLY)
    spectators_read_public = models.BooleanField(
        default=True, help_text="Logged-in spectators read the public board.")
    archive_for_spectators = models.BooleanField(
        default=False, help_text="After the end, spectators read every channel too.")
    pinned = models.ForeignKey("press.Message", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+",
                               help_text="The latest director announcement, pinned on top.")
    version = models.PositiveIntegerField(default=0, db_default=0, editable=False, help_text=(
        "Bumped by every change a press panel shows (press/freshness.py): a panel rendered "
        "once is kept under it."))

    class Meta:
        verbose_name = "press settings"
        verbose_name_plural = "press settings"

    def __str__(self) -> str:
        return f"press of {self.match_id}: {self.rules}"

    def save(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        """Settings or the pinned announcement changed: what the panels show changed."""
        self.version = (self.version or 0) + 1
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "version"}
        super().save(*args, **kwargs)


class Message(models.Model):
    """One message. ``audience`` is ``""`` on the public board and announcements, else the
    member seats as ``",1,5,"`` (one indexable ``LIKE`` finds a reader's rows)."""

    class Channel(models.TextChoices):
        PUBLIC = "public", "Public board"
        PRIVATE = "private", "Private conversation"
        TEAM = "team", "Team channel"
        ANNOUNCE = "announce", "Director announcement"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="press_messages")
    channel = models.CharField(max_length=10, choices=Channel.choices)
    audience = models.TextField(blank=True, default="")
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    author_name = models.CharField(max_length=150)
    phase = models.ForeignKey(Phase, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    turn = models.PositiveIntegerField(default=0)
    phase_kind = models.CharField(max_length=40, blank=True)
    text = models.TextField(max_length=MAX_LENGTH)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone_now)

    class Meta:
        ordering = ["match", "id"]
        indexes = [models.Index(fields=["match", "id"], name="press_msg_match_id")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.channel} in {self.match_id} by {self.author_name}"

    @staticmethod
    def audience_for(seats) -> str:
        return "," + ",".join(str(s) for s in sorted(set(seats))) + ","

    @property
    def members(self) -> list[int]:
        return [int(s) for s in self.audience.strip(",").split(",") if s]

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class ReadMark(models.Model):
    """The last message id a user has seen in a match (unread = visible rows after it)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    last_read_id = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"],
                                               name="press_readmark_once")]


class Mute(models.Model):
    """``seat`` does not want to read ``muted_seat`` in this match."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="press_mutes")
    muted_seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(default=timezone_now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "muted_seat"],
                                               name="press_mute_once")]


class Report(models.Model):
    """A reader flagged a message for the director."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                 related_name="+")
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone_now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"],
                                               name="press_report_once")]
        indexes = [models.Index(fields=["created_at"], name="press_report_open",
                                condition=Q(resolved_at__isnull=True))]

    def __str__(self) -> str:
        return f"report of message {self.message_id}"


class EmailMark(models.Model):
    """Email coalescing per reader and conversation: when the last email went, which
    message it covered, and when the batch collected since is due (quiet period)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    channel = models.CharField(max_length=10)
    audience = models.TextField(blank=True, default="")
    last_sent_at = models.DateTimeField(null=True, blank=True)
    last_message_id = models.PositiveBigIntegerField(default=0)
    due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user", "channel", "audience"],
                                               name="press_emailmark_once")]
        indexes = [models.Index(fields=["due_at"], name="press_email_due",
                                condition=Q(due_at__isnull=False))]
