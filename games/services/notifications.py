"""The notification outbox (STYLE.md §10): rows are created in the same transaction as the
event that caused them, and sent after commit by ``games.tasks.notification_send``.

Preferences are read twice: when a row is created (no row for an email the reader turned
off) and again when it is sent (the reader may have unsubscribed meanwhile). A failed email
is retried by the task and finally marked ``failed_at``; it never touches the phase that
caused it.

Who gets what:

- ``new_phase`` / ``your_turn``: seated players with ``email_mode=per_phase`` after a close
  (``your_turn`` when the next phase awaits only some seats and this one among them);
  phases without a deadline (solo steps) send nothing.
- ``reminder``: awaited seats not checked in (``seat_is_checked_in``, the one predicate),
  ``reminder_hours`` before the deadline, once per phase; not when ``email_mode=off``.
- ``digest``: once a day at 07:00 in the reader's zone for ``email_mode=digest``.
- ``match_started`` / ``match_finished`` / ``start_overdue``: when ``email_match_events``.
- ``director``: staff users (quarantined phases, matches that could not start).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.timezone import now as timezone_now

from accounts.models import Profile
from accounts.profiles import profile_for
from games import emails
from games.exceptions import ApplicationError
from games.lib import unsubscribe
from games.lib.dates import safe_zone
from games.lib.oncommit import enqueue_on_commit
from games.models import DiaryEntry, Match, Notification, Phase, Seat
from games.selectors import seat_is_checked_in

log = logging.getLogger(__name__)

K = Notification.Kind
PHASE_KINDS = {K.NEW_PHASE, K.YOUR_TURN, K.DIGEST}
MATCH_EVENT_KINDS = {K.MATCH_STARTED, K.MATCH_FINISHED, K.START_OVERDUE}
DIGEST_LOCAL_HOUR = 7

UNSUBSCRIBE_BAD_TOKEN = "This unsubscribe link is not valid."


def wants(user, kind: str) -> bool:
    """Whether ``user`` wants an email of ``kind`` now (their preferences, an address)."""
    if user is None or not user.is_active or not user.email:
        return False
    if kind == K.DIRECTOR:
        return user.is_staff and profile_for(user).email_match_events
    profile = profile_for(user)
    if kind in (K.NEW_PHASE, K.YOUR_TURN):
        return profile.email_mode == Profile.EmailMode.PER_PHASE
    if kind == K.DIGEST:
        return profile.email_mode == Profile.EmailMode.DIGEST
    if kind == K.REMINDER:
        return profile.email_mode != Profile.EmailMode.OFF and profile.reminder_hours > 0
    if kind in MATCH_EVENT_KINDS:
        return profile.email_match_events
    return True


def notification_create(*, recipient, kind: str, match: Match | None = None,
                        phase: Phase | None = None, payload: dict[str, Any] | None = None,
                        check_preferences: bool = True) -> Notification | None:
    """Create one outbox row (if the reader wants it) and queue its sending on commit."""
    if check_preferences and not wants(recipient, kind):
        return None
    notification = Notification.objects.create(recipient=recipient, kind=kind, match=match,
                                               phase=phase, payload=payload or {})
    enqueue_on_commit("notification_send", notification.pk)
    return notification


def notifications_create_bulk(rows: Iterable[Notification]) -> list[Notification]:
    """Insert many prepared rows at once and queue them, as one task, on commit."""
    created = Notification.objects.bulk_create(list(rows))
    if created:
        enqueue_on_commit("notifications_send", [n.pk for n in created])
    return created


def _active_seats(match: Match, seats: list[Seat] | None = None) -> list[Seat]:
    if seats is not None:
        return [s for s in seats if s.removed_at is None and not s.is_bot
                and s.user_id is not None and s.number is not None]
    return list(match.seats.filter(removed_at__isnull=True, is_bot=False, user__isnull=False,
                                   number__isnull=False).select_related("user__profile"))


def new_phase_rows(*, match: Match, closed: Phase | None, opened: Phase | None,
                   from_seq: int, to_seq: int, seats: list[Seat] | None = None
                   ) -> list[Notification]:
    """Unsaved outbox rows after ``closed`` resolved: a new phase, or the end of the match.

    ``from_seq``..``to_seq`` (inclusive) are the diary rows that close wrote; each reader's
    email shows only those its seat may read.
    """
    payload = {"closed_phase_id": closed.pk if closed else None,
               "phase_id": opened.pk if opened else None,
               "from_seq": from_seq, "to_seq": to_seq}
    rows: list[Notification] = []
    seats = _active_seats(match, seats)
    if opened is None:
        if closed is not None and closed.deadline_at is None:
            return rows  # a solo game ends while its player watches: no email
        for seat in seats:
            if wants(seat.user, K.MATCH_FINISHED):
                rows.append(Notification(recipient=seat.user, kind=K.MATCH_FINISHED, match=match,
                                         phase=closed, payload=payload))
        return rows
    if opened.deadline_at is None:
        return rows  # solo steps without a deadline: no email per step
    awaited = set(opened.awaited)
    seated = {s.number for s in seats}
    partial = bool(awaited) and awaited < seated
    for seat in seats:
        kind = K.YOUR_TURN if partial and seat.number in awaited else K.NEW_PHASE
        if wants(seat.user, kind):
            rows.append(Notification(recipient=seat.user, kind=kind, match=match, phase=opened,
                                     payload={**payload, "seat": seat.number}))
    return rows


def notify_new_phase(*, match: Match, closed: Phase | None, opened: Phase | None,
                     from_seq: int, to_seq: int, seats: list[Seat] | None = None) -> int:
    """Create (and queue on commit) the rows of :func:`new_phase_rows`."""
    return len(notifications_create_bulk(new_phase_rows(
        match=match, closed=closed, opened=opened, from_seq=from_seq, to_seq=to_seq,
        seats=seats)))


def notify_match_started(*, match: Match, phase: Phase | None) -> int:
    rows = [Notification(recipient=seat.user, kind=K.MATCH_STARTED, match=match, phase=phase,
                         payload={"phase_id": phase.pk if phase else None, "seat": seat.number})
            for seat in _active_seats(match) if wants(seat.user, K.MATCH_STARTED)]
    return len(notifications_create_bulk(rows))


def notify_director(*, match: Match | None, phase: Phase | None, subject: str,
                    message: str) -> int:
    """Alert every staff user (the director) by email; also logs at ERROR for ADMINS."""
    log.error("director alert: %s — %s", subject, message)
    if settings.ADMINS:  # the ADMINS of the settings hear it too, after commit
        from django.core.mail import mail_admins

        transaction.on_commit(lambda: mail_admins(subject, message, fail_silently=True))
    staff = get_user_model().objects.filter(is_staff=True, is_active=True).exclude(email="")
    rows = [Notification(recipient=user, kind=K.DIRECTOR, match=match, phase=phase,
                         payload={"subject": subject, "message": message})
            for user in staff if wants(user, K.DIRECTOR)]
    return len(notifications_create_bulk(rows))


# --- sending ---------------------------------------------------------------------------

def notification_send(*, notification_id: int, now: datetime | None = None) -> bool:
    """Send one outbox row; True if this call sent it.

    1. Claim the row with a conditional update on ``sent_at IS NULL`` (a second sender,
       a redelivered task, finds nothing to claim).
    2. Re-check the reader's preferences; a row nobody wants any more is closed unsent.
    3. Render and send; on error un-claim the row (so a retry may claim it) and re-raise.
    """
    now = now or timezone_now()
    claimed = Notification.objects.filter(
        pk=notification_id, sent_at__isnull=True, failed_at__isnull=True).update(sent_at=now)
    if not claimed:
        return False
    notification = Notification.objects.select_related("recipient", "match", "phase").get(
        pk=notification_id)
    Notification.objects.filter(pk=notification_id).update(attempts=notification.attempts + 1)
    if not wants(notification.recipient, notification.kind):
        Notification.objects.filter(pk=notification_id).update(error="skipped: preferences")
        return False
    try:
        message = emails.build(notification)
        message.send(fail_silently=False)
    except Exception as exc:
        Notification.objects.filter(pk=notification_id).update(sent_at=None, error=repr(exc)[:2000])
        raise
    return True


def notification_send_failure(*, notification_id: int, error: str,
                              now: datetime | None = None) -> None:
    """The last retry failed: mark the row failed (it is not retried again)."""
    now = now or timezone_now()
    Notification.objects.filter(pk=notification_id, sent_at__isnull=True).update(
        failed_at=now, error=error[:2000])


def notifications_pending(*, now: datetime | None = None, older_than_seconds: int = 60,
                          limit: int = 500) -> list[int]:
    """Ids of unsent rows older than a minute (their on-commit task was lost or failed)."""
    now = now or timezone_now()
    return list(Notification.objects.filter(
        sent_at__isnull=True, failed_at__isnull=True,
        created_at__lte=now - timedelta(seconds=older_than_seconds),
    ).order_by("created_at").values_list("pk", flat=True)[:limit])


# --- reminders ("nags") and digests ------------------------------------------------------

def nag_times(phase: Phase, seats: list[Seat]) -> list[Seat]:
    """Set ``next_nag_at`` (deadline − the reader's lead) in memory on the awaited seats of
    ``seats`` (the match's seats with user and profile); returns those that changed."""
    awaited = set(phase.awaited)
    changed = []
    for seat in seats:
        if (seat.number not in awaited or seat.removed_at is not None or seat.is_bot
                or seat.user_id is None):
            continue
        lead = profile_for(seat.user).reminder_hours
        when = (phase.deadline_at - timedelta(hours=lead)
                if phase.deadline_at is not None and lead > 0 else None)
        if seat.next_nag_at != when:
            seat.next_nag_at = when
            changed.append(seat)
    return changed


def seat_nags_schedule(*, phase: Phase, seats: list[Seat] | None = None) -> None:
    """Set ``Seat.next_nag_at`` for the awaited seats of ``phase`` (deadline − lead).
    ``seats`` (the match's seats with user and profile) saves the query when at hand."""
    if seats is None:
        seats = list(Seat.objects.filter(match_id=phase.match_id, number__in=list(phase.awaited))
                     .select_related("user__profile"))
    changed = nag_times(phase, seats)
    if changed:
        Seat.objects.bulk_update(changed, ["next_nag_at"])


def seats_send_nags(*, now: datetime | None = None) -> int:
    """Remind awaited seats that have not checked in; once per phase and seat.

    Uses :func:`games.selectors.seat_is_checked_in` — the same predicate as the early
    close — so a dead or eliminated seat is never nagged.
    """
    now = now or timezone_now()
    sent = 0
    due = list(Seat.objects.filter(next_nag_at__lte=now).values_list("pk", flat=True)[:1000])
    for seat_id in due:
        with transaction.atomic():
            # claim: clearing next_nag_at first makes a concurrent nagger find nothing
            if not Seat.objects.filter(pk=seat_id, next_nag_at__lte=now).update(next_nag_at=None):
                continue
            seat = Seat.objects.select_related("user__profile", "match").get(pk=seat_id)
            match = seat.match
            if match.status != Match.Status.RUNNING or seat.user is None:
                continue
            phase = (Phase.objects.filter(match=match, closed_at__isnull=True,
                                          quarantined_at__isnull=True).order_by("-number").first())
            if phase is None or phase.deadline_at is None or phase.deadline_at <= now:
                continue
            if seat_is_checked_in(phase, seat):
                continue
            if Notification.objects.filter(recipient=seat.user, phase=phase,
                                           kind=K.REMINDER).exists():
                continue
            if notification_create(recipient=seat.user, kind=K.REMINDER, match=match, phase=phase,
                                   payload={"seat": seat.number, "phase_id": phase.pk}):
                sent += 1
    return sent


def digests_send(*, now: datetime | None = None) -> int:
    """Queue the daily digest for readers with ``email_mode=digest`` at 07:00 their time.

    A digest lists the diary rows each reader may see in their running or just-finished
    matches since their last digest (at most a day back); nothing new, no email.
    """
    now = now or timezone_now()
    queued = 0
    profiles = Profile.objects.filter(email_mode=Profile.EmailMode.DIGEST).select_related("user")
    for profile in profiles:
        local = now.astimezone(safe_zone(profile.timezone))
        if local.hour != DIGEST_LOCAL_HOUR:
            continue
        since = profile.digest_last_sent_at
        if since is not None and now - since < timedelta(hours=20):
            continue
        since = max(since or now - timedelta(days=1), now - timedelta(days=1))
        with transaction.atomic():
            if not Profile.objects.filter(pk=profile.pk).filter(
                    Q(digest_last_sent_at__isnull=True)
                    | Q(digest_last_sent_at__lte=now - timedelta(hours=20))).update(
                        digest_last_sent_at=now):
                continue  # another digest run got there first
            sections = []
            seats = Seat.objects.filter(user=profile.user, number__isnull=False,
                                        removed_at__isnull=True).select_related("match")
            for seat in seats:
                entries = (DiaryEntry.objects.filter(match=seat.match, created_at__gt=since)
                           .filter(Q(is_public=True) | Q(audience__contains=f",{seat.number},")))
                seqs = list(entries.values_list("seq", flat=True))
                if seqs:
                    sections.append({"match_id": seat.match_id, "seat": seat.number,
                                     "from_seq": min(seqs), "to_seq": max(seqs)})
            if sections and notification_create(recipient=profile.user, kind=K.DIGEST,
                                                payload={"since": since.isoformat(),
                                                         "sections": sections}):
                queued += 1
    return queued


# --- unsubscribe ------------------------------------------------------------------------

@dataclass(frozen=True)
class UnsubscribeResult:
    user: Any
    category: str
    description: str


CATEGORY_DESCRIPTIONS = {
    "phase": "emails about new phases and the daily digest",
    "reminder": "reminders before a deadline",
    "match_events": "emails when your matches start or end (and director alerts)",
}


def notification_unsubscribe_read(token: str) -> UnsubscribeResult:
    """What ``token`` would turn off, without changing anything (the GET confirm page)."""
    try:
        request = unsubscribe.read_token(token)
    except unsubscribe.BadToken:
        raise ApplicationError(UNSUBSCRIBE_BAD_TOKEN, code="BAD_TOKEN", status=400) from None
    user = get_user_model().objects.filter(pk=request.user_id).first()
    if user is None:
        raise ApplicationError(UNSUBSCRIBE_BAD_TOKEN, code="BAD_TOKEN", status=400)
    return UnsubscribeResult(user=user, category=request.category,
                             description=CATEGORY_DESCRIPTIONS[request.category])


def notification_unsubscribe(token: str) -> UnsubscribeResult:
    """Apply a one-click unsubscribe (POST; RFC 8058). Idempotent.

    ``phase`` → ``email_mode=off``; ``reminder`` → ``reminder_hours=0``;
    ``match_events`` → ``email_match_events=False``.
    """
    result = notification_unsubscribe_read(token)
    profile = profile_for(result.user)
    if result.category == "phase":
        profile.email_mode = Profile.EmailMode.OFF
    elif result.category == "reminder":
        profile.reminder_hours = 0
    else:
        profile.email_match_events = False
    profile.save(update_fields=["email_mode", "reminder_hours", "email_match_events"])
    if result.category == "reminder":
        Seat.objects.filter(user=result.user).update(next_nag_at=None)
    return result
