"""Press emails through the framework's outbox (``games.Notification``, kind ``press``).

Coalescing, per reader and conversation (``EmailMark``): the first message after a quiet
period is emailed at once; the ones that follow within ``PRESS_EMAIL_QUIET_SECONDS``
(10 minutes by default) wait and go out together when the period ends
(``press_emails_due``, on the beat every minute). Public-board messages send no email;
private, team and announcement messages do. A reader who turned message emails off
(``Profile.email_messages``) gets none; a reader whose match is on the daily digest gets
the unread messages in the digest instead (``digest_lines``).

The email is built at send time from ``access.readable_q`` for the reader, so a message
the reader may no longer read (hidden, muted, seat removed) never leaves.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.timezone import now as timezone_now

from accounts.names import shown_name
from games.models import Match, Notification, Seat

KIND = "message"  # games.services.notifications.MESSAGE_KIND
DEFAULT_QUIET_SECONDS = 600


def quiet() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "PRESS_EMAIL_QUIET_SECONDS",
                                         DEFAULT_QUIET_SECONDS)))


def _mode(seat: Seat) -> str:
    """'now', 'digest' or 'off' for message emails to ``seat``: the reader's own message
    preference (``Profile.email_messages``, one-click unsubscribe), and the daily digest
    when the match's phase-email mode is ``digest``."""
    from accounts.models import Profile
    from games.services.notifications import phase_mode, profile_for, wants

    if not wants(seat.user, KIND):
        return "off"
    if phase_mode(profile_for(seat.user), seat) == Profile.EmailMode.DIGEST:
        return "digest"
    return "now"


def queue_for_message(message, *, seats: list[Seat], now: datetime | None = None) -> int:
    """Inside the posting transaction: email (or schedule) each reader of ``message``.

    ``seats`` are the match's live seats with user and profile. The readers' marks are
    read (and locked) in one query, the new ones and the emails inserted in bulk.
    """
    from games.models import Notification as N
    from games.services.notifications import notifications_create_bulk
    from press.models import EmailMark, Message

    now = now or timezone_now()
    C = Message.Channel
    if message.channel == C.PUBLIC:
        return 0
    members = None if message.channel == C.ANNOUNCE else set(message.members)
    readers = [s for s in seats if s.user_id is not None and not s.is_bot
               and s.number is not None and s.number != message.from_seat
               and (members is None or s.number in members) and _mode(s) == "now"]
    if not readers:
        return 0
    marks = {m.user_id: m for m in EmailMark.objects.select_for_update().filter(
        match_id=message.match_id, channel=message.channel, audience=message.audience,
        user_id__in=[s.user_id for s in readers])}
    new_marks, rows, due, sent = [], [], [], []
    for seat in readers:
        mark = marks.get(seat.user_id)
        if mark is not None and mark.due_at is not None:
            continue  # a batch is already waiting for the end of the quiet period
        if mark is not None and mark.last_sent_at is not None \
                and now - mark.last_sent_at < quiet():
            due.append(mark.pk)  # within the quiet period: wait for its end
            continue
        after = (mark.last_message_id if mark is not None else 0) or message.pk - 1
        rows.append(N(recipient=seat.user, kind=KIND, match=message.match,
                      payload={"seat": seat.number, "channel": message.channel,
                               "audience": message.audience, "after_id": after,
                               "to_id": message.pk}))
        if mark is None:
            new_marks.append(EmailMark(match_id=message.match_id, user_id=seat.user_id,
                                       channel=message.channel, audience=message.audience,
                                       last_sent_at=now, last_message_id=message.pk))
        else:
            sent.append(mark.pk)
    if due:
        # each waits for the end of its own quiet period (last email + quiet); marks
        # emailed together (the same message) share it: one update per distinct time
        by_end: dict[datetime, list[int]] = {}
        for mark in marks.values():
            if mark.pk in due:
                by_end.setdefault(mark.last_sent_at + quiet(), []).append(mark.pk)
        for end, pks in by_end.items():
            EmailMark.objects.filter(pk__in=pks).update(due_at=end)
    if sent:
        EmailMark.objects.filter(pk__in=sent).update(last_sent_at=now,
                                                     last_message_id=message.pk, due_at=None)
    if new_marks:
        EmailMark.objects.bulk_create(new_marks, ignore_conflicts=True)
    notifications_create_bulk(rows)
    return len(rows)


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
            if seat is None or newest is None or _mode(seat) != "now":
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
        rows = [{"from_name": shown_name(m.author_name), "text": m.text, "turn": m.turn,
                 "when": format_local(m.created_at, zone)} for m in qs[:50]]
    channel = p.get("channel")
    label = {Message.Channel.ANNOUNCE: "an announcement from the director",
             Message.Channel.TEAM: "your team channel"}.get(channel, "a private conversation")
    return {"messages": rows, "conversation": label,
            "is_announcement": channel == Message.Channel.ANNOUNCE}


DIGEST_MAX_LINES = 20


def digest_lines(n: Notification, sections: list[dict[str, Any]], zone: str) -> None:
    """Add each digest section's unread messages (since the last digest) to its lines."""
    from datetime import datetime as dt

    from games.services.notifications import wants
    from press import access, selectors
    from press.models import Message, ReadMark

    if not sections or not wants(n.recipient, KIND):
        return
    try:
        since = dt.fromisoformat(n.payload.get("since", ""))
    except (TypeError, ValueError):
        return
    for section in sections:
        match = section.get("match")
        reader = access.reader_for(match, n.recipient) if match is not None else None
        if reader is None or not reader.is_player:
            continue
        read = (ReadMark.objects.filter(match=match, user=n.recipient)
                .values_list("last_read_id", flat=True).first()) or 0
        rows = list(selectors.readable(reader)
                    .filter(created_at__gt=since, id__gt=read, hidden_at__isnull=True)
                    .exclude(author=n.recipient).order_by("id")[:DIGEST_MAX_LINES + 1])
        for m in rows[:DIGEST_MAX_LINES]:
            where = {Message.Channel.PUBLIC: "public board", Message.Channel.TEAM: "team",
                     Message.Channel.ANNOUNCE: "announcement"}.get(m.channel, "private")
            text = m.text if len(m.text) <= 300 else m.text[:299] + "…"
            section["lines"].append(f"Message from {shown_name(m.author_name)} ({where}): {text}")
        if len(rows) > DIGEST_MAX_LINES:
            section["lines"].append("More messages on the match page.")

