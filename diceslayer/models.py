"""Dice Slayer's own data: the daily-challenge attempts (one counted attempt per player per
calendar day, enforced by a database constraint) that the daily and all-time leaderboards
rank. The games themselves are framework matches (``games.Match``); an attempt only points
at its match and copies the final score when the match finishes, so the leaderboards sort
in the database.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class DailyAttempt(models.Model):
    """A player's attempt at the daily challenge of ``day`` (UTC calendar day).

    Created when the player starts the challenge: starting is what counts, so abandoning a
    bad game and starting again is not possible (``daily_one_attempt_per_day``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="diceslayer_daily_attempts")
    day = models.DateField(db_index=True)
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                 related_name="diceslayer_daily")
    score = models.IntegerField(null=True, blank=True,
                                help_text="The final score, once the game is over.")
    rounds = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-day", "-score"]
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="daily_one_attempt_per_day"),
        ]
        indexes = [models.Index(fields=["day", "score"], name="daily_day_score")]

    def __str__(self) -> str:
        return f"{self.user} {self.day}: {self.score if self.score is not None else '…'}"

    @property
    def is_finished(self) -> bool:
        return self.score is not None


class Challenge(models.Model):
    """A versus challenge of one player by another: the match waits (forming, the
    challenger seated) until the challenged player accepts — then it starts — or declines,
    or the challenge expires unanswered (``expires_at``; the sweep
    ``diceslayer.tasks.challenges_expire`` cancels the match)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"
        WITHDRAWN = "withdrawn", "Withdrawn"

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                 related_name="diceslayer_challenge")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="diceslayer_challenges_sent")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="diceslayer_challenges_received")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    rematch_of = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="diceslayer_rematches")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["expires_at"], name="challenge_pending_expiry",
                                condition=models.Q(status="pending"))]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.opponent}: {self.status}"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING
