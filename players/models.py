"""What a player carries across matches: ratings per game and mode, the record of each seat
(phases awaited and missed — reliability, civil disorder) and away periods.

Kept beside ``games`` (which never imports this app): the framework's signals feed it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from players import glicko2


class Rating(models.Model):
    """A player's Glicko-2 rating in one game and mode (``killgame``/``ffa``, …)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    game = models.CharField(max_length=32)
    mode = models.CharField(max_length=32)
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    rd = models.FloatField(default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "mode", "-rating"]
        constraints = [models.UniqueConstraint(fields=["user", "game", "mode"],
                                               name="rating_one_per_game_mode")]
        indexes = [models.Index(fields=["game", "mode", "rating"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user} {self.game}/{self.mode}: {self.rating:.0f}±{self.rd:.0f}"

    @property
    def is_provisional(self) -> bool:
        return self.games < settings.RATING_PROVISIONAL_GAMES

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class RatingChange(models.Model):
    """One match's effect on one player's rating (at most once per match and player)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    game = models.CharField(max_length=32)
    mode = models.CharField(max_length=32)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["match", "user"],
                                               name="rating_change_once_per_match")]

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class SeatRecord(models.Model):
    """How a seat has turned up: phases it was awaited in, phases it missed (nothing sent,
    no check-in), the current run of misses; set absent after ``absent_after`` in a row."""

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="record")
    awaited = models.PositiveIntegerField(default=0)
    missed = models.PositiveIntegerField(default=0)
    missed_in_row = models.PositiveIntegerField(default=0)
    absent_since = models.DateTimeField(null=True, blank=True)
    takeover_open_since = models.DateTimeField(null=True, blank=True)
    replaced_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+",
                                      help_text="Who held the seat before a takeover.")

    @property
    def reliability(self) -> float | None:
        return None if not self.awaited else (self.awaited - self.missed) / self.awaited


class MatchRules(models.Model):
    """A match's rules for ratings and absent players (defaults when the row is missing)."""

    class AwayRule(models.TextChoices):
        DEFAULTS = "defaults", _("The seat plays its default orders (or the bot) while away")
        STRETCH = "stretch", _("Deadlines stretch by the away time, up to a cap")

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                 related_name="player_rules")
    rated = models.BooleanField(default=True)
    away_rule = models.CharField(max_length=10, choices=AwayRule.choices,
                                 default=AwayRule.DEFAULTS)
    stretch_cap_hours = models.PositiveIntegerField(default=72)
    absent_after = models.PositiveSmallIntegerField(
        default=3, help_text=_("Missed phases in a row before a seat is marked absent."))
    open_after_hours = models.PositiveIntegerField(
        default=48, help_text=_("Hours a seat stays absent before it is offered to the lobby "
                                "by itself (0: only the director or a vote opens it)."))


class LeftSeat(models.Model):
    """A player who left a seat that someone else took over (shown on their record)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="left_seats")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seat_number = models.PositiveSmallIntegerField()
    left_at = models.DateTimeField()
    replaced_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")


class Away(models.Model):
    """A declared away period (vacation): bounded per rolling window, see players.away."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="away_periods")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="away_user_ends")]
        constraints = [models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")),
                                              name="away_ends_after_start")]


class EmergencyPause(models.Model):
    """A seat's rationed emergency pause of one match (the match pauses; its deadlines move)."""

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE,
                             related_name="emergency_pauses")
    starts_at = models.DateTimeField()
    hours = models.PositiveSmallIntegerField()


class TakeoverVote(models.Model):
    """A living player's vote to open an absent seat for replacement."""

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="takeover_votes")
    voter = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "voter"],
                                               name="takeover_one_vote_each")]
