"""Civil disorder and replacement: an absent seat is opened for takeover by the director
or by a majority of the other active players, and a new player takes it with its state and
its diary — everything is keyed by seat, so they read what the seat knew and nothing more.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.timezone import now as timezone_now

from accounts.verification import is_verified
from games.exceptions import ApplicationError
from games.models import DirectorAction, Match, Seat
from games.services import news, notifications
from games.services.seats import seat_replace
from players.models import EmergencyPause, LeftSeat, SeatRecord, TakeoverVote

OVER = (Match.Status.FINISHED, Match.Status.CANCELLED)


def _record(seat: Seat) -> SeatRecord:
    record, _ = SeatRecord.objects.get_or_create(seat=seat)
    return record


def voters(match: Match, *, excluding: Seat) -> list[Seat]:
    """The seats that may vote on ``excluding``: held by a person, not removed, not absent."""
    seats = (Seat.objects.filter(match=match, user__isnull=False, is_bot=False,
                                 removed_at__isnull=True, number__isnull=False)
             .exclude(pk=excluding.pk))
    absent = set(SeatRecord.objects.filter(seat__match=match, absent_since__isnull=False)
                 .values_list("seat_id", flat=True))
    return [s for s in seats if s.pk not in absent]


def _seat_open_news(match: Match, seat: Seat, reason: str, now: datetime) -> None:
    """The table hears that ``seat`` is open for a new player (the lobby lists it)."""
    phase, params = news.open_phase_params(match)
    who = seat.user.get_username() if seat.user_id else "bot"
    news.news_to_table(match=match, event=news.SEAT_OPEN, phase=phase, now=now,
                       params={**params, "seat": seat.number, "old": who, "reason": reason})


def takeover_open(*, seat: Seat, actor, now: datetime | None = None) -> SeatRecord:
    """The director opens ``seat`` for a replacement (any seat of a running match)."""
    now = now or timezone_now()
    if not getattr(actor, "is_staff", False):
        raise ApplicationError("Only the director can open a seat directly.", code="FORBIDDEN",
                               status=403)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=seat.match_id)
        if match.status in OVER or seat.number is None:
            raise ApplicationError("The match is not running.", code="MATCH_OVER", status=409)
        record = _record(seat)
        if record.takeover_open_since is None:
            record.takeover_open_since = now
            record.save(update_fields=["takeover_open_since"])
            DirectorAction.objects.create(match=match, actor=actor, action="takeover_open",
                                          details={"seat": seat.number})
            _seat_open_news(match, seat, "director", now)
    return record


def takeover_vote(*, seat: Seat, voter: Seat, now: datetime | None = None) -> tuple[int, int]:
    """``voter`` votes to open the absent ``seat``; a majority of the voters opens it.
    Returns (votes, needed)."""
    now = now or timezone_now()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=seat.match_id)
        if match.status in OVER:
            raise ApplicationError("The match is over.", code="MATCH_OVER", status=409)
        record = _record(seat)
        if record.absent_since is None:
            raise ApplicationError("That seat is not marked absent.", code="NOT_ABSENT",
                                   status=409)
        eligible = voters(match, excluding=seat)
        if voter.pk not in {s.pk for s in eligible}:
            raise ApplicationError("You cannot vote on this seat.", code="FORBIDDEN", status=403)
        TakeoverVote.objects.get_or_create(seat=seat, voter=voter)
        votes = TakeoverVote.objects.filter(seat=seat, voter__in=eligible).count()
        needed = len(eligible) // 2 + 1
        if votes >= needed and record.takeover_open_since is None:
            record.takeover_open_since = now
            record.save(update_fields=["takeover_open_since"])
            DirectorAction.objects.create(match=match, actor=voter.user, action="takeover_open",
                                          details={"seat": seat.number, "votes": votes})
            _seat_open_news(match, seat, "vote", now)
    return votes, needed


def takeover_claim(*, seat: Seat, user, now: datetime | None = None) -> Seat:
    """``user`` takes the open ``seat``: the leaver's record shows it, the newcomer plays on
    from the seat's state and reads the seat's diary."""
    now = now or timezone_now()
    with transaction.atomic():
        record = SeatRecord.objects.select_for_update().filter(seat=seat).first()
        if record is None or record.takeover_open_since is None:
            raise ApplicationError("That seat is not open for a new player.", code="NOT_OPEN",
                                   status=409)
        if not is_verified(user):  # ACCOUNT_EMAIL_VERIFICATION (accounts/verification.py)
            raise ApplicationError("Verify your email address first.", code="UNVERIFIED",
                                   status=403)
        leaver = seat.user
        fresh = seat_replace(seat=seat, user=user, actor=user)
        if leaver is not None:
            LeftSeat.objects.create(user=leaver, match_id=seat.match_id, seat_number=seat.number,
                                    left_at=now, replaced_by=user)
        record.replaced_user = leaver
        record.missed_in_row = 0
        record.absent_since = None
        record.takeover_open_since = None
        record.save(update_fields=["replaced_user", "missed_in_row", "absent_since",
                                   "takeover_open_since"])
        TakeoverVote.objects.filter(seat=seat).delete()
    return fresh


def open_seats():
    """Seats waiting for a new player, oldest first (for the lobby's list)."""
    return (SeatRecord.objects.filter(takeover_open_since__isnull=False,
                                      seat__match__status=Match.Status.RUNNING)
            .select_related("seat__match").defer("seat__match__state", "seat__match__config")
            .order_by("takeover_open_since"))


def emergency_pause(*, seat: Seat, now: datetime | None = None) -> EmergencyPause:
    """The seat's rationed emergency pause: the open phase's deadline moves
    ``EMERGENCY_PAUSE_HOURS`` later (``EMERGENCY_PAUSES_PER_MATCH`` per seat and match)."""
    now = now or timezone_now()
    hours = settings.EMERGENCY_PAUSE_HOURS
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=seat.match_id)
        if match.status != Match.Status.RUNNING:
            raise ApplicationError("Only a running match can be paused.", code="NOT_RUNNING",
                                   status=409)
        used = EmergencyPause.objects.filter(seat=seat).count()
        if used >= settings.EMERGENCY_PAUSES_PER_MATCH:
            raise ApplicationError("You have used your emergency pause in this match.",
                                   code="PAUSE_USED", status=409)
        phase = match.phases.filter(closed_at__isnull=True).first()
        if phase is None or phase.deadline_at is None:
            raise ApplicationError("The open phase has no deadline to move.", code="NO_DEADLINE",
                                   status=409)
        phase.deadline_at += timedelta(hours=hours)
        phase.save(update_fields=["deadline_at"])
        notifications.seat_nags_schedule(phase=phase)
        news.news_to_table(match=match, event=news.EXTENDED, phase=phase, now=now, params={
            "phase_kind": phase.kind, "turn": phase.turn, "name": seat.user.get_username()
            if seat.user_id else "", "deadline": phase.deadline_at.isoformat()})
        pause = EmergencyPause.objects.create(seat=seat, starts_at=now, hours=hours)
        match.version += 1
        match.save(update_fields=["version"])
        DirectorAction.objects.create(match=match, actor=seat.user, action="emergency_pause",
                                      details={"seat": seat.number, "hours": hours})
    return pause
