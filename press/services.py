"""Press actions (docs/style.md §11): post a message, hide it (the director, logged), report it,
mute a seat, mark messages read. Each takes keyword arguments, checks the rules in
``press.access`` and raises ``ApplicationError`` with a stable code; a refusal changes
nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext, gettext_noop

from accounts.names import shown_name
from games import selectors as game_selectors
from games.exceptions import ApplicationError
from games.models import DirectorAction, Match, Seat
from press import access, ratelimit
from press import emails as press_emails
from press import selectors
from press.models import DeadRule, MatchPress, Message, Mute, ReadMark, Report
from config.textclean import clean_text
from press.text import clean_text as clean_message

RATE_LIMITED = gettext_noop("You are writing too fast: wait %(seconds)s s.")
NOT_READABLE = gettext_noop("No such message.")
DIRECTOR_ONLY = gettext_noop("Only the director can do this.")
DIRECTOR_NAME = "Director"
BAD_MUTE = gettext_noop("There is no other player in seat %(seat)s.")
REASON_TOO_LONG = gettext_noop("A report's reason has at most 300 characters.")


class RateLimited(ApplicationError):
    def __init__(self, retry_after: int) -> None:
        super().__init__(gettext(RATE_LIMITED) % {"seconds": retry_after}, code="RATE_LIMITED",
                         status=429, details={"retry_after": retry_after})
        self.retry_after = retry_after


def _reader(match: Match, user: Any) -> access.Reader:
    reader = access.reader_for(match, user)
    if reader is None:
        raise ApplicationError(access.NOT_A_PARTICIPANT, code="NOT_A_PARTICIPANT", status=403)
    return reader


def message_post(*, match: Match, user: Any, to: Any, text: Any,
                 now: datetime | None = None) -> Message:
    """Post ``text`` to ``to`` ("all" | "team" | [seat, ...]) as ``user``.

    1. who may write where (``access.target_for``): rules, seat, life, team, seats;
    2. the text (plain, ≤ 2,000 characters);
    3. the per-seat rate limit (cache, fixed window) → 429 with Retry-After;
    4. the row, stamped with the open phase, and the emails it queues (coalesced per
       conversation), in one transaction.
    """
    now = now or timezone_now()
    reader = _reader(match, user)
    # the match's seats once, for the targets, the emails and the unread counters (with
    # whether each one muted the writer)
    seats = list(Seat.objects.filter(match=match, removed_at__isnull=True,
                                     number__isnull=False).select_related("user__profile")
                 .annotate(muted_writer=Exists(Mute.objects.filter(
                     seat=OuterRef("pk"), muted_seat=reader.number if reader.is_player else -1))))
    channel, members = access.target_for(reader, to, live={s.number for s in seats})
    clean = clean_message(text)
    who = f"{match.pk}:{reader.number}" if reader.is_player else f"{match.pk}:u{user.pk}"
    retry_after = ratelimit.hit(who, now=now.timestamp())
    if retry_after is not None:
        raise RateLimited(retry_after)
    phase = game_selectors.current_phase(match) if match.state is not None else None
    name = DIRECTOR_NAME if reader.director else user.get_username()
    with transaction.atomic():
        message = Message.objects.create(
            match=match, channel=channel,
            audience=Message.audience_for(members) if members else "",
            from_seat=reader.number, author=user, author_name=name, phase=phase,
            turn=phase.turn if phase else 0, phase_kind=phase.kind if phase else "",
            text=clean, created_at=now)
        if channel == Message.Channel.ANNOUNCE:
            row = access.settings_for(match)
            row.pinned = message
            row.save()
        press_emails.queue_for_message(message, seats=seats, now=now)
    dead: list[int] = []
    if members and reader.press.dead == DeadRule.PUBLIC_ONLY:
        dead = [p.get("seat") for p in reader.view().get("players") or []
                if isinstance(p, dict) and p.get("alive") is False]
    selectors.unread_add(message, seats=seats, dead_seats=dead)
    # the members' names, known here: the answer to the post names them without a query
    message.member_names = {s.number: (shown_name(s.user.username) if s.user_id else "bot")  # type: ignore[attr-defined]
                            for s in seats}
    return message


def _message_for(reader: access.Reader, message_id: int) -> Message:
    q = access.readable_q(reader)
    message = None
    if q is not None:
        message = Message.objects.filter(q, match=reader.match, pk=message_id).first()
    if message is None:
        raise ApplicationError(NOT_READABLE, code="NOT_FOUND", status=404)
    return message


def message_hide(*, match: Match, actor: Any, message_id: int, hide: bool = True,
                 now: datetime | None = None) -> Message:
    """The director hides (or shows again) a message; logged in the director's log."""
    now = now or timezone_now()
    if not getattr(actor, "is_staff", False):
        raise ApplicationError(DIRECTOR_ONLY, code="FORBIDDEN", status=403)
    with transaction.atomic():
        message = Message.objects.select_for_update().filter(match=match, pk=message_id).first()
        if message is None:
            raise ApplicationError(NOT_READABLE, code="NOT_FOUND", status=404)
        if hide == message.is_hidden:
            return message
        message.hidden_at, message.hidden_by = (now, actor) if hide else (None, None)
        message.save(update_fields=["hidden_at", "hidden_by"])
        DirectorAction.objects.create(
            match=match, actor=actor, action="press_hide" if hide else "press_unhide",
            details={"message_id": message.pk, "from": message.author_name,
                     "channel": message.channel})
        if hide:
            Report.objects.filter(message=message, resolved_at__isnull=True).update(
                resolved_at=now)
    return message


def message_report(*, match: Match, user: Any, message_id: int, reason: str = "",
                   now: datetime | None = None) -> Report:
    """A reader flags a message they can read; the director sees it in the admin."""
    now = now or timezone_now()
    reader = _reader(match, user)
    if not reader.is_player:
        raise ApplicationError(access.NOT_A_PARTICIPANT, code="NOT_A_PARTICIPANT", status=403)
    message = _message_for(reader, message_id)
    reason = clean_text(reason or "").strip()
    if len(reason) > 300:
        raise ApplicationError(REASON_TOO_LONG, code="TOO_LONG", status=400, field="reason")
    try:
        with transaction.atomic():
            return Report.objects.create(message=message, reporter=user, reason=reason,
                                         created_at=now)
    except IntegrityError:  # reported twice: the first report stands
        return Report.objects.get(message=message, reporter=user)


def mute_set(*, match: Match, user: Any, seat_number: int, muted: bool) -> None:
    """Mute (or unmute) another seat's messages for me in this match."""
    reader = _reader(match, user)
    if not reader.is_player:
        raise ApplicationError(access.NOT_A_PARTICIPANT, code="NOT_A_PARTICIPANT", status=403)
    if seat_number == reader.number or not match.seats.filter(
            number=seat_number, removed_at__isnull=True).exists():
        raise ApplicationError(gettext(BAD_MUTE) % {"seat": seat_number}, code="INVALID",
                               status=400,
                               field="seat")
    if muted:
        Mute.objects.get_or_create(seat=reader.seat, muted_seat=seat_number)
    else:
        Mute.objects.filter(seat=reader.seat, muted_seat=seat_number).delete()


def read_mark(*, match: Match, user: Any, last_id: int) -> None:
    """Remember that ``user`` has seen this match's messages up to ``last_id``."""
    if not getattr(user, "is_authenticated", False) or last_id <= 0:
        return
    updated = ReadMark.objects.filter(match=match, user=user,
                                      last_read_id__lt=last_id).update(last_read_id=last_id)
    if not updated:
        try:
            with transaction.atomic():
                ReadMark.objects.get_or_create(match=match, user=user,
                                               defaults={"last_read_id": last_id})
        except IntegrityError:
            pass
    selectors.unread_clear(user=user, match_id=match.pk)


def press_settings_set(*, match: Match, rules: str | None = None, dead: str | None = None,
                       spectators_read_public: bool | None = None,
                       archive_for_spectators: bool | None = None) -> MatchPress:
    """Store a match's press settings (at creation: the lobby form or the admin)."""
    row = access.settings_for(match)
    for name, value in (("rules", rules), ("dead", dead),
                        ("spectators_read_public", spectators_read_public),
                        ("archive_for_spectators", archive_for_spectators)):
        if value is not None:
            setattr(row, name, value)
    row.full_clean(exclude=["match"])
    row.save()
    return row
