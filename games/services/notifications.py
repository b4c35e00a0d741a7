"""The notification outbox (docs/style.md §10): who hears about what. Rows are created in the
same transaction as the event that caused them; ``games.services.outbox`` sends them after
commit (lease, batches, retries).

The policy: each player picks a phase-email mode on the profile and may override it per
match (``Seat.email_mode``):

- ``my_move`` (the default): an email when a new phase awaits this player;
- ``per_phase``: an email for every new phase of the match;
- ``digest``: one email a day (07:00 in the reader's zone) with what happened;
- ``off``: no phase emails.

Messages between players (press) are set apart: ``Profile.email_messages``.

In ask-based games (registry extra ``email_coalesce``: Three Kingdoms Kill, Dice Slayer
versus) a player hears about an ask only when that ask awaits them, whatever the mode, and
"your move" emails coalesce: at most one per match per ``EMAIL_QUIET_MINUTES`` (a later one
waits for the end of the quiet period and goes out only if something still awaits the
player then), and none while the player is on the page (``games.lib.presence``).

Preferences are read twice: when a row is created (no row for an email the reader turned
off) and again when it is sent (:func:`send_decisions`: the reader may have unsubscribed or
already answered meanwhile). Other kinds:

- ``reminder``: awaited seats not checked in (``seat_is_checked_in``, the one predicate)
  that gave no order and are not on the page, ``reminder_hours`` before the deadline but
  at most a quarter of the phase's length (none for a phase too short), once per phase;
  not when the mode is ``off``.
- ``match_started`` / ``match_finished`` / ``start_overdue``: when ``email_match_events``.
- ``director``: staff users (quarantined phases, matches that could not start).
"""

from __future__ import annotations

import json
import logging
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Protocol

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Max, Q
from django.db.models.base import ModelState
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_noop

from accounts.models import Profile
from accounts.profiles import profile_for
from games import emails, registry
from games.exceptions import ApplicationError
from games.lib import presence, unsubscribe
from games.lib.dates import safe_zone
from games.lib.oncommit import enqueue_on_commit
from games.models import CheckIn, DiaryEntry, Match, Notification, Order, Phase, Seat
from games.registry import UnknownGame, get_game
from games.selectors import seat_is_checked_in
from games.services.news_audience import news_wanted

log = logging.getLogger(__name__)

K = Notification.Kind
PHASE_KINDS = {K.NEW_PHASE, K.YOUR_TURN, K.DIGEST}
MATCH_EVENT_KINDS = {K.MATCH_STARTED, K.MATCH_FINISHED, K.START_OVERDUE}
DIGEST_LOCAL_HOUR = 7

UNSUBSCRIBE_BAD_TOKEN = gettext_noop("This unsubscribe link is not valid.")


MODE = Profile.EmailMode
MESSAGE_KIND = "message"  # press messages (their own preference, Profile.email_messages)


def phase_mode(profile: Profile, seat: Seat | None = None) -> str:
    """The phase-email mode for ``seat``'s match: the seat's override, else the profile's."""
    if seat is not None and seat.email_mode:
        return seat.email_mode
    return profile.email_mode


def phase_email_wanted(mode: str, awaited: bool) -> bool:
    """Whether a new phase is worth an email in ``mode`` (``awaited``: it waits for me)."""
    if mode == MODE.PER_PHASE:
        return True
    if mode == MODE.MY_MOVE:
        return awaited
    return False


def coalesces(game: str) -> bool:
    """Ask-based games (``GameHooks.email_coalesce``) coalesce "your move" emails."""
    try:
        return get_game(game).hooks.email_coalesce
    except UnknownGame:
        return False


def wants(user, kind: str, *, seat: Seat | None = None, awaited: bool | None = None) -> bool:
    """Whether ``user`` wants an email of ``kind`` now (their preferences, an address).

    For phase emails ``seat`` brings the per-match override and ``awaited`` whether the
    phase waits for this seat (unknown: treated as awaited for ``your_turn`` only)."""
    if user is None or not user.is_active or not user.email:
        return False
    if kind == K.DIRECTOR:
        return user.is_staff and profile_for(user).email_match_events
    profile = profile_for(user)
    if kind in (K.NEW_PHASE, K.YOUR_TURN):
        if awaited is None:
            awaited = kind == K.YOUR_TURN
        return phase_email_wanted(phase_mode(profile, seat), awaited)
    if kind == K.DIGEST:
        return profile.email_mode == MODE.DIGEST or Seat.objects.filter(
            user=user, email_mode=MODE.DIGEST).exists()
    if kind == K.REMINDER:
        return phase_mode(profile, seat) != MODE.OFF and profile.reminder_hours > 0
    if kind in MATCH_EVENT_KINDS:
        return profile.email_match_events
    if kind == MESSAGE_KIND:
        return profile.email_messages
    if kind == K.MATCH_NEWS:  # which news: games.services.news_audience.news_wanted
        return profile.email_match_events
    return True


EMAIL_MODE_INVALID = gettext_noop("Choose one of the email options shown.")


def seat_email_mode_set(*, seat: Seat, mode: str) -> Seat:
    """Override the reader's phase-email mode for this match only (``""``: the profile's)."""
    if mode not in {"", *MODE.values}:
        raise ApplicationError(EMAIL_MODE_INVALID, code="BAD_EMAIL_MODE", status=400,
                               field="email_mode")
    Seat.objects.filter(pk=seat.pk).update(email_mode=mode)
    seat.email_mode = mode
    return seat


class Channel(Protocol):
    """A way out besides email, plugged in by another app (``reach``: web push, webhooks)
    through ``AppHooks.channels``. Its rows are ``Notification`` rows with ``channel =
    name``: the same outbox, leases, retries, away periods (the apps' ``send_veto``) and
    coalescing as email.

    - ``rows_for(candidates, seats)``: the rows this channel adds for one event, given the
      rows the event would make for every reader whatever their email preference
      (``candidates``, unsaved, channel ``email``) and ``{user id: seat}``;
    - ``match_rows(match=, event=, phase=, closed=, payload=)``: rows for the match's own
      targets (a group's per-match webhook): ``event`` is ``phase_opened``,
      ``match_started``, ``match_finished`` or ``match_news`` (``payload``: the news,
      ``{"events": [...]}``, of which the channel keeps only what everyone may read);
    - ``wanted(row, seat)``: the reader's preference at send time (like :func:`wants`);
    - ``deliver(rows, now, record)``: send each row and call ``record(row, verdict,
      reason)`` as soon as its fate is known (``"sent"``, ``"skip"``, ``"retry"`` or
      ``"failed"``); the outbox writes it at once (``games.services.outbox``);
    - optionally ``prefetched(user_ids=, match_ids=)``: a context manager within which
      ``rows_for`` and ``match_rows`` for those readers and matches read what one query
      read up front (:func:`channels_prefetched`: a sweep closes fifty matches at once).
    """

    name: str

    def rows_for(self, candidates: list[Notification],
                 seats: dict[int, Seat]) -> list[Notification]: ...

    def match_rows(self, *, match: Match, event: str, phase: Phase | None,
                   closed: Phase | None,
                   payload: dict[str, Any] | None = None) -> list[Notification]: ...

    def wanted(self, row: Notification, seat: Seat | None) -> bool: ...

    def deliver(self, rows: list[Notification], now: datetime,
                record: Callable[[Notification, str, str], None]) -> None: ...


def channels() -> dict[str, Channel]:
    """The channels besides email the registered apps plug in, by name (``reach``: ``push``
    and ``webhook``)."""
    return {channel.name: channel for app in registry.all_apps() for channel in app.channels}


def channels_prefetched(*, user_ids: Iterable[int], match_ids: Iterable[int]) -> ExitStack:
    """Within: every plugged-in channel that can (``prefetched``) answers ``rows_for`` and
    ``match_rows`` for these readers and matches from what it read up front, not with
    queries per event."""
    stack = ExitStack()
    users, matches = set(user_ids), set(match_ids)
    for channel in channels().values():
        prefetch = getattr(channel, "prefetched", None)
        if prefetch is not None:
            stack.enter_context(prefetch(user_ids=users, match_ids=matches))
    return stack


def channel_rows(candidates: list[Notification], seats: list[Seat], *, match: Match,
                 event: str, phase: Phase | None = None, closed: Phase | None = None,
                 payload: dict[str, Any] | None = None) -> list[Notification]:
    """Every plugged-in channel's rows for one event: the readers' (from ``candidates``)
    and the match's own targets (``event``; ``payload`` for ``match_news``)."""
    plugged = channels()
    if not plugged:
        return []
    by_user = {seat.user_id: seat for seat in seats}
    rows: list[Notification] = []
    for channel in plugged.values():
        if candidates:
            rows += channel.rows_for(candidates, by_user)
        if event:
            rows += channel.match_rows(match=match, event=event, phase=phase, closed=closed,
                                       payload=payload)
    return rows


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


def new_row(*, recipient, kind: str, match: Match | None = None, phase: Phase | None = None,
            payload: dict[str, Any] | None = None) -> Notification:
    """``Notification(recipient=…, kind=…, match=…, phase=…, payload=…)``, unsaved, built
    without ``Model.__init__``'s per-field work (the close makes a dozen per match, six
    hundred per sweep batch; ``tests/games/services/test_close_queries.py`` compares the
    two)."""
    row = Notification.__new__(Notification)
    values = row.__dict__
    values.update(_row_defaults())
    values.update(recipient_id=recipient.pk if recipient is not None else None, kind=kind,
                  match_id=match.pk if match is not None else None,
                  phase_id=phase.pk if phase is not None else None,
                  payload=payload if payload is not None else {},
                  next_attempt_at=timezone_now())
    state = ModelState()
    state.fields_cache.update(recipient=recipient, match=match, phase=phase)
    row._state = state
    return row


_DEFAULTS: dict[str, Any] = {}


def _row_defaults() -> dict[str, Any]:
    """Every column's default that is a constant (``payload`` and ``next_attempt_at``
    are made per row by :func:`new_row`)."""
    if not _DEFAULTS:
        for f in Notification._meta.concrete_fields:
            if f.attname not in ("payload", "next_attempt_at"):
                _DEFAULTS[f.attname] = f.get_default()
    return _DEFAULTS


def notifications_create_bulk(rows: Iterable[Notification]) -> list[Notification]:
    """Insert many prepared rows at once and queue them, as one task, on commit."""
    created = _insert(list(rows))
    if created:
        enqueue_on_commit("notifications_send", [n.pk for n in created])
    return created


#: the columns :func:`_insert` writes besides those every new row has alike, with their
#: SQL types (``created_at`` is the statement's, ``attempts`` 0, ``error`` empty, the rest
#: of the columns empty)
_INSERT_COLUMNS = (("recipient_id", "bigint"), ("kind", "varchar"), ("match_id", "bigint"),
                   ("phase_id", "bigint"), ("payload", "jsonb"),
                   ("next_attempt_at", "timestamptz"), ("channel", "varchar"),
                   ("target_id", "bigint"))


def _insert(rows: list[Notification]) -> list[Notification]:
    """Insert ``rows`` (new, unsent, unclaimed) and set their ids. On PostgreSQL one
    ``INSERT … SELECT FROM json_to_recordset(…) RETURNING id``: the rows travel as one
    JSON text (the C encoder), where Django's ``bulk_create`` prepared every field of every
    row, and per-column arrays were quoted element by element (the close writes a dozen
    rows per match, some six hundred per sweep batch). Elsewhere ``bulk_create``."""
    if not rows:
        return rows
    if connection.vendor != "postgresql" or any(
            r.sent_at or r.failed_at or r.claimed_until or r.held_at or r.attempts or r.error
            for r in rows):
        return Notification.objects.bulk_create(rows)
    now = timezone_now()
    data = []
    for row in rows:
        row.created_at = now
        if row.next_attempt_at is None:
            row.next_attempt_at = now
        data.append({"recipient_id": row.recipient_id, "kind": row.kind,
                     "match_id": row.match_id, "phase_id": row.phase_id,
                     "payload": row.payload or {},
                     "next_attempt_at": row.next_attempt_at.isoformat(),
                     "channel": row.channel or "email", "target_id": row.target_id})
    names = ", ".join(name for name, _ in _INSERT_COLUMNS)
    types = ", ".join(f"{name} {kind}" for name, kind in _INSERT_COLUMNS)
    sql = (f"INSERT INTO {connection.ops.quote_name(Notification._meta.db_table)} "
           f"({names}, created_at, attempts, error) "
           f"SELECT {names}, %s, 0, '' FROM json_to_recordset(%s::json) AS v({types}) "
           f"RETURNING id")
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, json.dumps(data)])
        ids = [pk for (pk,) in cursor.fetchall()]
    for row, pk in zip(rows, ids, strict=True):
        row.pk = pk
        row._state.adding = False
        row._state.db = connection.alias
    return rows


def _active_seats(match: Match, seats: list[Seat] | None = None) -> list[Seat]:
    if seats is not None:
        return [s for s in seats if s.removed_at is None and not s.is_bot
                and s.user_id is not None and s.number is not None]
    return list(match.seats.filter(removed_at__isnull=True, is_bot=False, user__isnull=False,
                                   number__isnull=False).select_related("user__profile"))


def new_phase_rows(*, match: Match, closed: Phase | None, opened: Phase | None,
                   from_seq: int, to_seq: int, seats: list[Seat] | None = None,
                   now: datetime | None = None) -> list[Notification]:
    """Unsaved outbox rows after ``closed`` resolved: a new phase, or the end of the match.

    ``from_seq``..``to_seq`` (inclusive) are the diary rows that close wrote; each reader's
    email shows only those its seat may read. Who gets one: see the module docstring.
    """
    payload = {"closed_phase_id": closed.pk if closed else None,
               "phase_id": opened.pk if opened else None,
               "from_seq": from_seq, "to_seq": to_seq}
    rows: list[Notification] = []
    seats = _active_seats(match, seats)
    if opened is None:
        if closed is not None and closed.deadline_at is None:
            return rows  # a solo game ends while its player watches: no email
        candidates = [new_row(recipient=seat.user, kind=K.MATCH_FINISHED, match=match,
                              phase=closed, payload=payload) for seat in seats]
        rows = [row for row in candidates if wants(row.recipient, K.MATCH_FINISHED)]
        return rows + channel_rows(candidates, seats, match=match, event="match_finished",
                                   closed=closed)
    if opened.deadline_at is None:
        return rows  # solo steps without a deadline: no email per step
    awaited = set(opened.awaited)
    seated = {s.number for s in seats}
    partial = bool(awaited) and awaited < seated
    coalesce = coalesces(match.game)
    candidates = []
    for seat in seats:
        mine = seat.number in awaited
        if coalesce and not mine:
            continue  # an ask that does not await this player is none of their business
        kind = K.YOUR_TURN if partial and mine else K.NEW_PHASE
        row = new_row(recipient=seat.user, kind=kind, match=match, phase=opened,
                      payload={**payload, "seat": seat.number, "awaited": mine})
        candidates.append(row)
        if wants(seat.user, kind, seat=seat, awaited=mine):
            rows.append(row)
    if candidates:
        rows += channel_rows(candidates, seats, match=match, event="", phase=opened)
    if coalesce and rows:
        rows = _coalesce(match, rows, now or timezone_now())
    # the match's own targets: not a reader's, never coalesced per reader
    rows += channel_rows([], seats, match=match, event="phase_opened", phase=opened,
                         closed=closed)
    return rows


def _coalesce(match: Match, rows: list[Notification], now: datetime) -> list[Notification]:
    """At most one phase email per reader and match per quiet period, none while on the page.

    A reader who already has one waiting gets no second row (the waiting one describes the
    match as it is when it goes out); a reader emailed less than ``EMAIL_QUIET_MINUTES``
    ago, or on the page now, gets a row held until then (``next_attempt_at``), which
    :func:`send_decisions` drops if nothing awaits them any more by that time.
    """
    quiet = timedelta(minutes=settings.EMAIL_QUIET_MINUTES)
    window = timedelta(seconds=settings.EMAIL_ON_PAGE_SECONDS)
    users = [row.recipient_id for row in rows]
    recent = (Notification.objects.filter(match=match, recipient_id__in=users,
                                          kind__in=[K.NEW_PHASE, K.YOUR_TURN])
              .filter(Q(sent_at__isnull=True, failed_at__isnull=True)
                      | Q(sent_at__gte=now - quiet, error=""))
              .values("recipient_id", "channel", "target_id")
              .annotate(last_sent=Max("sent_at"),
                        waiting=Max("pk", filter=Q(sent_at__isnull=True,
                                                   failed_at__isnull=True))))
    # per reader and channel (and the channel's target): a push waiting holds no email
    by_user = {(r["recipient_id"], r["channel"], r["target_id"]): r for r in recent}
    seen = presence.seen_at([(match.pk, u) for u in users], now=now)
    out = []
    for row in rows:
        info = by_user.get((row.recipient_id, row.channel, row.target_id))
        if info and info["waiting"]:
            continue
        hold = now
        if info and info["last_sent"]:
            hold = max(hold, info["last_sent"] + quiet)
        if (match.pk, row.recipient_id) in seen:
            hold = max(hold, seen[(match.pk, row.recipient_id)] + window)
        row.next_attempt_at = hold
        out.append(row)
    return out


def notify_new_phase(*, match: Match, closed: Phase | None, opened: Phase | None,
                     from_seq: int, to_seq: int, seats: list[Seat] | None = None) -> int:
    """Create (and queue on commit) the rows of :func:`new_phase_rows`."""
    return len(notifications_create_bulk(new_phase_rows(
        match=match, closed=closed, opened=opened, from_seq=from_seq, to_seq=to_seq,
        seats=seats)))


def notify_match_started(*, match: Match, phase: Phase | None) -> int:
    seats = _active_seats(match)
    candidates = [Notification(recipient=seat.user, kind=K.MATCH_STARTED, match=match,
                               phase=phase, payload={"phase_id": phase.pk if phase else None,
                                                     "seat": seat.number})
                  for seat in seats]
    rows = [row for row in candidates if wants(row.recipient, K.MATCH_STARTED)]
    rows += channel_rows(candidates, seats, match=match, event="match_started", phase=phase)
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


# --- sending (the machinery is games.services.outbox) -------------------------------------

@dataclass(frozen=True)
class Decision:
    """What to do with a claimed row: send it, ``skip`` it (why) or hold it until then."""

    skip: str | None = None
    hold_until: datetime | None = None


SEND = Decision()

def send_decisions(rows: list[Notification], *, now: datetime) -> dict[int, Decision]:
    """The policy at send time, for a whole batch in a few queries.

    1. No address, inactive, or the preference (with the per-match override) now says
       no: skip.
    2. A coalesced phase email (ask-based game): skip it when no open phase of the match
       awaits the reader any more (answered, checked in, match over); hold it while the
       reader is on the page; else point it at the phase open now and the diary up to now.
    """
    phase_rows = [r for r in rows if r.kind in (K.NEW_PHASE, K.YOUR_TURN) and r.match_id]
    in_match = [r for r in rows if r.match_id]
    seats = {}
    if in_match:
        seats = {(s.match_id, s.user_id): s for s in Seat.objects.filter(
            match_id__in={r.match_id for r in in_match},
            user_id__in={r.recipient_id for r in in_match}, removed_at__isnull=True)}
    coalesced = [r for r in phase_rows if coalesces(r.match.game)]
    coalesced_ids = {r.pk for r in coalesced}
    open_phases: dict[int, Phase] = {}
    checked: set[tuple[int, int]] = set()
    seen: dict[tuple[int, int], datetime] = {}
    if coalesced:
        for phase in (Phase.objects.filter(match_id__in={r.match_id for r in coalesced},
                                           closed_at__isnull=True).order_by("number")):
            open_phases[phase.match_id] = phase
        checked = set(CheckIn.objects.filter(phase__in=list(open_phases.values()))
                      .values_list("phase_id", "seat_id"))
        seen = presence.seen_at([(r.match_id, r.recipient_id) for r in coalesced], now=now)
    window = timedelta(seconds=settings.EMAIL_ON_PAGE_SECONDS)
    vetoed: dict[int, str] = {}
    for app in registry.all_apps():  # other apps hold some back (players: the reader is away)
        if app.send_veto is not None:
            vetoed.update(app.send_veto(rows, now))
    plugged = channels()
    out: dict[int, Decision] = {}
    for row in rows:
        if row.pk in vetoed:
            out[row.pk] = Decision(skip=vetoed[row.pk])
            continue
        seat = seats.get((row.match_id, row.recipient_id))
        if row.kind in (K.NEW_PHASE, K.YOUR_TURN) and row.match_id and seat is None:
            out[row.pk] = Decision(skip="no longer seated")
            continue
        if row.channel != "email":
            channel = plugged.get(row.channel)
            if channel is None or not channel.wanted(row, seat):
                out[row.pk] = Decision(skip="preferences")
                continue
        elif row.kind == K.MATCH_NEWS:
            out[row.pk] = SEND if news_wanted(row.recipient, row.payload, seat=seat) else \
                Decision(skip="preferences")
            continue
        elif not wants(row.recipient, row.kind, seat=seat, awaited=row.payload.get("awaited")):
            out[row.pk] = Decision(skip="preferences")
            continue
        if row.pk not in coalesced_ids:
            out[row.pk] = SEND
            continue
        phase = open_phases.get(row.match_id)
        if (phase is None or row.match.status != Match.Status.RUNNING
                or phase.quarantined_at is not None or seat.number not in phase.awaited
                or seat.is_bot or (phase.pk, seat.pk) in checked):
            out[row.pk] = Decision(skip="nothing awaits the player any more")
            continue
        if (row.match_id, row.recipient_id) in seen:
            out[row.pk] = Decision(hold_until=seen[(row.match_id, row.recipient_id)] + window)
            continue
        if row.phase_id != phase.pk:  # a later ask: the email describes the match as it is now
            row.phase = phase
            row.payload = {**row.payload, "phase_id": phase.pk, "to_seq": row.match.diary_seq}
            Notification.objects.filter(pk=row.pk).update(phase=phase, payload=row.payload)
        out[row.pk] = SEND
    return out


def notifications_failed_for(user, *, days: int = 30, limit: int = 20) -> list[Notification]:
    """The reader's emails that failed for good lately (shown on the profile page)."""
    since = timezone_now() - timedelta(days=days)
    return list(Notification.objects.filter(recipient=user, failed_at__gte=since,
                                            channel="email")
                .select_related("match").order_by("-failed_at")[:limit])


# --- reminders ("nags") and digests ------------------------------------------------------

#: a reminder's lead is at most this share of the phase's length (a 1-hour turn: 15 min)
REMINDER_LEAD_SHARE = 4
#: a phase whose lead would be shorter than this gets no reminder (a fast table's asks)
REMINDER_MIN_LEAD = timedelta(minutes=5)


def reminder_at(phase: Phase, hours: float) -> datetime | None:
    """When to remind an awaited reader of ``phase`` whose lead is ``hours``: the lead grows
    with the phase — at most a quarter of its length, so never before three quarters of
    it have passed — and a phase too short for a useful lead gets none."""
    if phase.deadline_at is None or hours <= 0:
        return None
    length = phase.deadline_at - (phase.opens_at or phase.deadline_at)
    lead = min(timedelta(hours=hours), length / REMINDER_LEAD_SHARE)
    if lead < REMINDER_MIN_LEAD:
        return None
    return phase.deadline_at - lead


def nag_times(phase: Phase, seats: list[Seat]) -> list[Seat]:
    """Set ``next_nag_at`` (:func:`reminder_at`) in memory on the awaited seats of
    ``seats`` (the match's seats with user and profile); returns those that changed."""
    awaited = set(phase.awaited)
    changed = []
    for seat in seats:
        if (seat.number not in awaited or seat.removed_at is not None or seat.is_bot
                or seat.user_id is None):
            continue
        when = reminder_at(phase, profile_for(seat.user).reminder_hours)
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
    """Remind awaited seats that have not checked in; at most once per phase and seat.

    Uses :func:`games.selectors.seat_is_checked_in` — the same predicate as the early
    close — so a dead or eliminated seat is never nagged; nor a seat that gave an order in
    this phase, nor a player on the match page now (``games.lib.presence``); the time comes
    from :func:`reminder_at` (the lead grows with the phase's length).
    """
    now = now or timezone_now()
    sent = 0
    due = list(Seat.objects.filter(next_nag_at__lte=now).order_by("match_id", "pk")
               .values_list("pk", "match_id")[:1000])
    for seat_id, match_id in due:
        with transaction.atomic():
            # The lock order (docs/framework.md "Lock order"): the match row first, as
            # orders, check-ins and closes take it, then the seat. A match another
            # transaction holds now is skipped (its seats keep next_nag_at: the next run
            # nags them) rather than waited for.
            match = (Match.objects.select_for_update(skip_locked=True).filter(pk=match_id)
                     .first())
            if match is None:
                continue
            # claim: clearing next_nag_at first makes a concurrent nagger find nothing
            if not Seat.objects.filter(pk=seat_id, next_nag_at__lte=now).update(next_nag_at=None):
                continue
            seat = Seat.objects.select_related("user__profile").get(pk=seat_id)
            if match.status != Match.Status.RUNNING or seat.user is None:
                continue
            phase = (Phase.objects.filter(match=match, closed_at__isnull=True,
                                          quarantined_at__isnull=True).order_by("-number").first())
            if phase is None or phase.deadline_at is None or phase.deadline_at <= now:
                continue
            if seat_is_checked_in(phase, seat):
                continue
            # never to a player who already acted, or who has the page open now
            if Order.objects.filter(phase=phase, seat=seat, is_default=False).exists():
                continue
            if presence.seen_at([(match.pk, seat.user_id)], now=now):
                continue
            if Notification.objects.filter(recipient=seat.user, phase=phase,
                                           kind=K.REMINDER).exists():
                continue
            if not wants(seat.user, K.REMINDER, seat=seat):
                continue
            if notification_create(recipient=seat.user, kind=K.REMINDER, match=match, phase=phase,
                                   payload={"seat": seat.number, "phase_id": phase.pk},
                                   check_preferences=False):
                sent += 1
    return sent


def digests_send(*, now: datetime | None = None) -> int:
    """Queue the daily digest at 07:00 in the reader's time zone for the matches whose mode
    (profile, or the seat's per-match override) is ``digest``.

    A digest lists the diary rows each reader may see in those running or just-finished
    matches since their last digest (at most a day back); nothing new, no email.
    """
    now = now or timezone_now()
    queued = 0
    profiles = Profile.objects.filter(
        Q(email_mode=MODE.DIGEST) | Q(user__seats__email_mode=MODE.DIGEST)
    ).distinct().select_related("user")
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
                if phase_mode(profile, seat) != MODE.DIGEST:
                    continue
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
    "messages": "emails with the messages other players send you",
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
    ``match_events`` → ``email_match_events=False``; ``messages`` → ``email_messages=False``.
    """
    result = notification_unsubscribe_read(token)
    profile = profile_for(result.user)
    if result.category == "phase":
        profile.email_mode = Profile.EmailMode.OFF
    elif result.category == "reminder":
        profile.reminder_hours = 0
    elif result.category == "messages":
        profile.email_messages = False
    else:
        profile.email_match_events = False
    profile.save(update_fields=["email_mode", "reminder_hours", "email_match_events",
                                "email_messages"])
    if result.category == "reminder":
        Seat.objects.filter(user=result.user).update(next_nag_at=None)
    return result

