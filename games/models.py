"""The framework's data: matches, seats, phases, orders, check-ins, snapshots, the diary,
the notification outbox and the director's log. Models hold data, constraints and trivial
properties; game flow lives in ``games/services`` (docs/style.md §11).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_lazy as _

from games.fields import DocumentJSONField


def new_seed() -> str:
    return secrets.token_hex(16)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def default_match_timezone() -> str:
    return settings.DEFAULT_MATCH_TIMEZONE


class Match(models.Model):
    """One match of one registered game, from forming to finished."""

    class Status(models.TextChoices):
        FORMING = "forming", _("Forming")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    game = models.CharField(max_length=32, db_index=True, help_text="Registry slug.")
    name = models.CharField(max_length=100)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FORMING,
                              db_index=True)
    config = models.JSONField(default=dict, blank=True,
                              help_text="Validated against the game's schema; defaults filled.")
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=30)
    timezone = models.CharField(max_length=64, default=default_match_timezone)
    schedule = models.JSONField(default=dict, blank=True, help_text=(
        'How deadlines are computed: {"mode": "windows", "windows": {"tactical": "13:00", '
        '"action": "21:30"}} | {"mode": "duration", "hours": 24} ; optional "check_max_hours" '
        'and "durations": {"short": seconds, ...}.'))
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    is_private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, default=new_invite_code, unique=True,
                                   editable=False)
    starts_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Start automatically then, if enough joined.")
    bots_enabled = models.BooleanField(default=False,
                                       help_text="Absent players are played by the game's bot.")
    early_close = models.BooleanField(default=True, help_text=(
        "Close a scheduled phase as soon as every awaited player has checked in. Off: "
        "scheduled phases wait for their deadline (turn steps and CHECK mode still advance "
        "when everyone is done)."))
    state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, editable=False, help_text=(
        "The public version: bumped by what every seat may see (phase open/close, public "
        "state, status). Seat.version counts what only one seat sees."))
    diary_seq = models.PositiveIntegerField(default=0, editable=False)
    outcome = models.JSONField(null=True, blank=True, editable=False)
    needs_director = models.BooleanField(default=False)
    director_note = models.TextField(blank=True)
    start_overdue_notified_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "starts_at"], name="match_status_starts")]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    def refresh_from_db(self, *args, **kwargs):
        """Also forget the seats memoised for this request (``games.lib.pages.seat_of``):
        an action that bumped a seat's version re-renders with the seat as it is now, or
        its next form would carry the old seat version and be refused as stale."""
        self.__dict__.pop("_seat_cache", None)
        super().refresh_from_db(*args, **kwargs)


class Seat(models.Model):
    """A user's place in a match. ``number`` is the engine's SeatId, given at start."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    is_bot = models.BooleanField(default=False, help_text="Played by the bot (replaced player).")
    removed_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    last_checkin_at = models.DateTimeField(null=True, blank=True)
    next_nag_at = models.DateTimeField(null=True, blank=True, db_index=True)
    email_mode = models.CharField(max_length=10, blank=True, default="", help_text=(
        "Phase emails for this match only; empty = the profile's choice."))
    version = models.PositiveIntegerField(default=0, editable=False, help_text=(
        "Bumped by what only this seat sees (its own orders and check-in, private events); "
        "Match.version counts what every seat sees."))

    class Meta:
        ordering = ["match", "number", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], condition=Q(user__isnull=False),
                                    name="seat_one_per_user"),
            models.UniqueConstraint(fields=["match", "number"],
                                    condition=Q(number__isnull=False), name="seat_unique_number"),
        ]

    def __str__(self) -> str:
        who = self.user.get_username() if self.user_id else "bot"
        return f"{who} @ {self.match_id}#{self.number}"


class Phase(models.Model):
    """One phase of a match: open until its deadline or until every awaited seat checked in."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="phases")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    turn = models.PositiveIntegerField(default=0)
    seed = models.CharField(max_length=64)
    opens_at = models.DateTimeField()
    deadline_at = models.DateTimeField(null=True, blank=True)
    awaited = models.JSONField(default=list, help_text="Seat numbers that must act.")
    close_when_all_checked_in = models.BooleanField(default=True)
    checkin_final = models.BooleanField(default=False)
    default_text = models.CharField(max_length=300, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    close_failures = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    quarantined_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    ready_at = models.DateTimeField(null=True, blank=True, help_text=(
        "Set in the transaction of the check-in that completed the awaited set: the sweep "
        "closes ready phases as well as due ones (the queued close is only a shortcut)."))

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"],
                                               name="phase_unique_number")]
        # (…, id): the sweep reads them in that order, 200 at a time; with the id in the
        # index a storm of phases due at one instant is read from the index in order,
        # not sorted whole on every read
        indexes = [models.Index(fields=["deadline_at", "id"], name="phase_open_deadline",
                                condition=Q(closed_at__isnull=True, quarantined_at__isnull=True)),
                   models.Index(fields=["ready_at", "id"], name="phase_open_ready",
                                condition=Q(closed_at__isnull=True, quarantined_at__isnull=True,
                                            ready_at__isnull=False))]

    def __str__(self) -> str:
        return f"{self.match_id} phase {self.number} ({self.kind})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Order(models.Model):
    """One accepted order; the id is the match-wide submission sequence (replay source)."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="orders")
    payload = models.JSONField()
    is_default = models.BooleanField(default=False, help_text="Filled in for an absent seat.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class CheckIn(models.Model):
    """A seat declared itself done for a phase (withdrawn = row deleted)."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="checkins")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="checkins")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["phase", "seat"],
                                               name="checkin_once_per_phase")]


class Snapshot(models.Model):
    """The engine state after a phase closed (phase=None: the state at start)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    phase = models.OneToOneField(Phase, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="snapshot")
    state = DocumentJSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]


class DiaryEntry(models.Model):
    """One engine event, stored once with its audience; never updated (docs/style.md §20).

    ``audience`` is ``""`` for a public event, else the seat numbers as ``",1,5,"`` so one
    indexable ``LIKE`` finds a seat's rows on PostgreSQL and SQLite alike.
    """

    # no index of its own: (match, seq) and (match, turn, seq) lead with it (one index
    # fewer to write for each of the thousands of rows a deadline storm inserts)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="diary",
                              db_index=False)
    phase = models.ForeignKey(Phase, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="diary")
    seq = models.PositiveIntegerField()
    turn = models.PositiveIntegerField(default=0)
    phase_kind = models.CharField(max_length=40, blank=True)
    kind = models.CharField(max_length=60)
    payload = models.JSONField(default=dict)
    is_public = models.BooleanField(default=True)
    audience = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        verbose_name_plural = "diary entries"
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="diary_unique_seq")]
        # a page reads one match's latest turn(s), not every row of the match
        indexes = [models.Index(fields=["match", "turn", "seq"], name="diary_match_turn")]

    @staticmethod
    def audience_for(visible_to) -> str:
        return "" if visible_to is None else "," + ",".join(str(s) for s in sorted(visible_to)) + ","

    @staticmethod
    def seats_of(is_public: bool, audience: str) -> frozenset[int] | None:
        """The seat numbers an entry is visible to (None: everyone), from its columns."""
        if is_public:
            return None
        return frozenset(int(s) for s in audience.strip(",").split(",") if s)

    @property
    def visible_to(self) -> frozenset[int] | None:
        return self.seats_of(self.is_public, self.audience)


class Notification(models.Model):
    """The outbox (email, and the channels other apps plug in): created with the event that
    caused it, sent after commit.

    A sender claims a row by setting ``claimed_until`` (a lease); ``sent_at`` is written
    only after the SMTP server accepted the message. A lease that expires (the sender
    died) makes the row claimable again; ``next_attempt_at`` holds retries (backoff) and
    coalesced "your move" emails until their time.
    """

    class Kind(models.TextChoices):
        NEW_PHASE = "new_phase", "New phase"
        REMINDER = "reminder", "Reminder"
        DIGEST = "digest", "Daily digest"
        MATCH_STARTED = "match_started", "Match started"
        MATCH_FINISHED = "match_finished", "Match finished"
        YOUR_TURN = "your_turn", "Your move"
        DIRECTOR = "director", "Director alert"
        START_OVERDUE = "start_overdue", "Match could not start"
        MATCH_NEWS = "match_news", "Match news"

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="notifications")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="notifications")
    phase = models.ForeignKey(Phase, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="notifications")
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(default=timezone_now)
    claimed_until = models.DateTimeField(null=True, blank=True)
    held_at = models.DateTimeField(null=True, blank=True, help_text=(
        "Held after a restore (manage.py mail_hold): it may have gone out before the "
        "outage; sent only once the director releases it."))
    channel = models.CharField(max_length=10, default="email", help_text=(
        "How it leaves: email, or a channel another app plugs in "
        "(AppHooks.channels: push, webhook)."))
    target_id = models.PositiveBigIntegerField(null=True, blank=True, help_text=(
        "The channel's own target (a push subscription, a webhook); empty for email."))

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["next_attempt_at"], name="notification_due",
                                condition=Q(sent_at__isnull=True, failed_at__isnull=True))]


class DirectorAction(models.Model):
    """Every admin action on a match, with who and when; ``token`` makes a double submit
    of the same form apply once."""

    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="director_actions")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)
    token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class SweepHeartbeat(models.Model):
    """One row: when the deadline sweep last ran (the dead-man switch reads it)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    last_run_at = models.DateTimeField(null=True, blank=True)
