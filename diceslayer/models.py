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
