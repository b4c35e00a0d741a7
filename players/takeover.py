"""Civil disorder and replacement: an absent seat is opened for takeover by the director,
by a majority of the other active players (the absent, the away and the dead neither vote
nor count toward the majority), or by itself once it has been absent longer than the
match's ``open_after_hours``; a new player takes it with its state and its diary —
everything is keyed by seat, so they read what the seat knew and nothing more.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext, gettext_noop

from accounts.verification import is_verified
from games.exceptions import ApplicationError
from games.models import DirectorAction, Match, Seat
from games.services import news, notifications
from games.services.seats import seat_replace
from players.away import away_until
from players.models import EmergencyPause, LeftSeat, MatchRules, SeatRecord, TakeoverVote

OVER = (Match.Status.FINISHED, Match.Status.CANCELLED)


def _record(seat: Seat) -> SeatRecord:
    record, _ = SeatRecord.objects.get_or_create(seat=seat)
    return record


#: why a player may not vote on a seat (shown next to the seat, and as the refusal)
NOT_YOURS = gettext_noop("You cannot vote on your own seat.")
VOTER_ABSENT = gettext_noop("You cannot vote while your own seat is marked absent.")
VOTER_AWAY = gettext_noop("You cannot vote while you are away.")
VOTER_OUT = gettext_noop("You cannot vote: you are out of the match.")
VOTER_NOT_SEATED = gettext_noop("Only players of this match vote.")
NOBODY_VOTES = gettext_noop(
    "Nobody can vote on this seat: every other player is away, absent or out. It opens to "
    "the lobby by itself after %(hours)d hours absent, or when the director opens it.")
NOBODY_VOTES_NO_AUTO = gettext_noop(
    "Nobody can vote on this seat: every other player is away, absent or out. Only the "
    "director can open it.")


def _out_of_play(match: Match) -> set[int]:
    from games.services.news import fallen

    return fallen(match, {}, match.state or {}) if match.state else set()


def ineligible(match: Match, *, excluding: Seat, now: datetime | None = None
               ) -> dict[int, str]:
    """``{seat id: why}`` for every person's seat of ``match`` that may not vote on
    ``excluding``: the seat itself, absent seats, players away now, the dead. Their votes
    do not count toward the majority either."""
    now = now or timezone_now()
    seats = list(Seat.objects.filter(match=match, user__isnull=False, is_bot=False,
                                     removed_at__isnull=True, number__isnull=False))
    absent = set(SeatRecord.objects.filter(seat__match=match, absent_since__isnull=False)
                 .values_list("seat_id", flat=True))
    away = away_until([s.user_id for s in seats], now=now)
    out = _out_of_play(match)
    why: dict[int, str] = {}
    for s in seats:
        if s.pk == excluding.pk:
            why[s.pk] = NOT_YOURS
        elif s.number in out:
            why[s.pk] = VOTER_OUT
        elif s.pk in absent:
            why[s.pk] = VOTER_ABSENT
        elif s.user_id in away:
            why[s.pk] = VOTER_AWAY
    return why


def voters(match: Match, *, excluding: Seat, now: datetime | None = None) -> list[Seat]:
    """The seats that may vote on ``excluding``: held by a person, not removed, not
    absent, not away, not out of the match (:func:`ineligible` says why the others not)."""
    why = ineligible(match, excluding=excluding, now=now)
    return [s for s in Seat.objects.filter(match=match, user__isnull=False, is_bot=False,
                                           removed_at__isnull=True, number__isnull=False)
            if s.pk not in why]


def needed_votes(eligible: int) -> int:
    """A majority of those who may vote."""
    return eligible // 2 + 1


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
        why = ineligible(match, excluding=seat, now=now)
        if voter.pk in why:
            raise ApplicationError(gettext(why[voter.pk]), code="CANNOT_VOTE", status=403)
        if voter.match_id != match.pk or voter.removed_at is not None:
            raise ApplicationError(gettext(VOTER_NOT_SEATED), code="CANNOT_VOTE", status=403)
        eligible = voters(match, excluding=seat, now=now)
        TakeoverVote.objects.get_or_create(seat=seat, voter=voter)
        votes = TakeoverVote.objects.filter(seat=seat, voter__in=eligible).count()
        needed = needed_votes(len(eligible))
        if votes >= needed and record.takeover_open_since is None:
            record.takeover_open_since = now
            record.save(update_fields=["takeover_open_since"])
            DirectorAction.objects.create(match=match, actor=voter.user, action="takeover_open",
                                          details={"seat": seat.number, "votes": votes})
            _seat_open_news(match, seat, "vote", now)
    return votes, needed


def takeover_open_overdue(*, match: Match, now: datetime | None = None) -> int:
    """Offer to the lobby every seat of ``match`` absent for longer than the match's
    ``open_after_hours`` (no director, no vote needed). The caller holds the match lock
    (the players app calls it from the close's signal). Returns how many opened."""
    now = now or timezone_now()
    rules = MatchRules.objects.filter(match=match).first() or MatchRules()
    if not rules.open_after_hours or match.status != Match.Status.RUNNING:
        return 0
    due = list(SeatRecord.objects.select_related("seat__user").filter(
        seat__match=match, absent_since__lte=now - timedelta(hours=rules.open_after_hours),
        takeover_open_since__isnull=True, seat__removed_at__isnull=True,
        seat__is_bot=False))
    for record in due:
        record.takeover_open_since = now
        record.save(update_fields=["takeover_open_since"])
        DirectorAction.objects.create(match=match, actor=None, action="takeover_open",
                                      details={"seat": record.seat.number, "absent": True})
        _seat_open_news(match, record.seat, "absent", now)
    return len(due)


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
