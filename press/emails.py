"""Press emails through the framework's outbox (``games.Notification``, kind ``press``).

Coalescing, per reader and conversation (``EmailMark``): the first message after a quiet
period is emailed at once; the ones that follow within ``PRESS_EMAIL_QUIET_SECONDS``
(10 minutes by default) wait and go out together when the period ends
(``press_emails_due``, on the beat every minute). Public-board messages send no email;
private, team and announcement messages do. A reader who turned phase emails off gets
none; a reader on the daily digest gets them in the digest instead.

The email is built at send time from ``access.readable_q`` for the reader, so a message
the reader may no longer read (hidden, muted, seat removed) never leaves.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.timezone import now as timezone_now

from games.models import Match, Notification, Seat

KIND = "press"
DEFAULT_QUIET_SECONDS = 600


def quiet() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "PRESS_EMAIL_QUIET_SECONDS",
                                         DEFAULT_QUIET_SECONDS)))


def _mode(user: Any) -> str:
    """'now', 'digest' or 'off' for press emails, from the reader's email settings."""
    from accounts.models import Profile
    from games.services.notifications import profile_for, wants

    if not wants(user, KIND):
        return "off"
    profile = profile_for(user)
    pref = getattr(profile, "email_messages", None)  # a separate preference, where present
    if isinstance(pref, bool):
        if not pref:
            return "off"
    if profile.email_mode == Profile.EmailMode.DIGEST:
        return "digest"
    if profile.email_mode == Profile.EmailMode.OFF and pref is not True:
        return "off"
    return "now"


def queue_for_message(message, *, now: datetime | None = None) -> int:
    """Inside the posting transaction: email (or schedule) each reader of ``message``."""
    from press.models import EmailMark, Message

    now = now or timezone_now()
    C = Message.Channel
    if message.channel == C.PUBLIC:
        return 0
    seats = Seat.objects.filter(match_id=message.match_id, removed_at__isnull=True,
                                is_bot=False, user__isnull=False, number__isnull=False)
    if message.channel != C.ANNOUNCE:
        seats = seats.filter(number__in=message.members)
    if message.from_seat is not None:
        seats = seats.exclude(number=message.from_seat)
    seats = list(seats.select_related("user__profile"))
    created = 0
    for seat in seats:
        if _mode(seat.user) != "now":
            continue
        mark, _ = EmailMark.objects.select_for_update().get_or_create(
            match_id=message.match_id, user=seat.user, channel=message.channel,
            audience=message.audience)
        if mark.due_at is not None:
            continue  # a batch is already waiting for the end of the quiet period
        if mark.last_sent_at is None or now - mark.last_sent_at >= quiet():
            after = mark.last_message_id or message.pk - 1
            _notify(mark, seat, match=message.match, after_id=after, to_id=message.pk, now=now)
            created += 1
        else:
            mark.due_at = mark.last_sent_at + quiet()
            mark.save(update_fields=["due_at"])
    return created


def _notify(mark, seat: Seat, *, match: Match, after_id: int, to_id: int,
            now: datetime) -> None:
    from games.services.notifications import notification_create

    notification_create(
        recipient=seat.user, kind=KIND, match=match,
        payload={"seat": seat.number, "channel": mark.channel, "audience": mark.audience,
                 "after_id": after_id, "to_id": to_id},
        check_preferences=False)
    mark.last_sent_at = now
    mark.last_message_id = to_id
    mark.due_at = None
    mark.save(update_fields=["last_sent_at", "last_message_id", "due_at"])


def press_emails_due(*, now: datetime | None = None, limit: int = 500) -> int:
    """Send the batches whose quiet period ended: one email per reader and conversation
    with the messages since the last one that the reader has not read on the site yet."""
    from press.models import EmailMark, Message, ReadMark

    now = now or timezone_now()
    sent = 0
    due = list(EmailMark.objects.filter(due_at__lte=now).values_list("pk", flat=True)[:limit])
    for mark_id in due:
        with transaction.atomic():
            mark = (EmailMark.objects.select_for_update(skip_locked=True)
                    .filter(pk=mark_id, due_at__lte=now).select_related("match").first())
            if mark is None:
                continue
            seat = (Seat.objects.filter(match_id=mark.match_id, user_id=mark.user_id,
                                        removed_at__isnull=True, number__isnull=False)
                    .select_related("user__profile").first())
            read = (ReadMark.objects.filter(match_id=mark.match_id, user_id=mark.user_id)
                    .values_list("last_read_id", flat=True).first()) or 0
            after = max(mark.last_message_id, read)
            newest = (Message.objects.filter(match_id=mark.match_id, channel=mark.channel,
                                             audience=mark.audience, id__gt=after,
                                             hidden_at__isnull=True)
                      .exclude(author_id=mark.user_id)
                      .order_by("-id").values_list("id", flat=True).first())
            if seat is None or newest is None or _mode(seat.user) != "now":
                mark.due_at = None  # nothing left to tell (read on the site, or hidden)
                mark.save(update_fields=["due_at"])
                continue
            _notify(mark, seat, match=mark.match, after_id=after, to_id=newest, now=now)
            sent += 1
    return sent


# --- building the email (games.emails calls this at send time) ------------------------

def ctx_press(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    """The messages of one conversation the reader may still read, oldest first."""
    from games.lib.dates import format_local
    from press import access, selectors
    from press.models import Message

    p = n.payload
    rows: list[Any] = []
    reader = access.reader_for(n.match, n.recipient) if n.match is not None else None
    if reader is not None and reader.is_player:
        qs = (selectors.readable(reader)
              .filter(channel=p.get("channel"), audience=p.get("audience", ""),
                      id__gt=int(p.get("after_id", 0)), id__lte=int(p.get("to_id", 0)),
                      hidden_at__isnull=True).order_by("id"))
        rows = [{"from_name": m.author_name, "text": m.text, "turn": m.turn,
                 "when": format_local(m.created_at, zone)} for m in qs[:50]]
    channel = p.get("channel")
    label = {Message.Channel.ANNOUNCE: "an announcement from the director",
             Message.Channel.TEAM: "your team channel"}.get(channel, "a private conversation")
    return {"messages": rows, "conversation": label,
            "is_announcement": channel == Message.Channel.ANNOUNCE}


def register() -> None:
    """Plug the ``press`` kind into the framework's email builder and unsubscribe links."""
    from games import emails
    from games.lib import unsubscribe

    emails.BUILDERS.setdefault(KIND, ctx_press)
    category = "messages" if "messages" in unsubscribe.CATEGORIES else "phase"
    unsubscribe.CATEGORY_FOR_KIND.setdefault(KIND, category)
