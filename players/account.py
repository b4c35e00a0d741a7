"""Accounts people control (docs/accounts.md): download everything we hold about me, and
delete my account.

Lives in ``players`` (above ``games`` and beside ``press``) because both reach across the
apps: the profile (accounts), the matches, orders and diary (games), the messages (press),
the ratings and away periods (players).

Deleting an account erases what is personal and keeps the records of play, anonymised:

- the user row stays (diaries, match records, ratings and messages keep pointing at it)
  but its name becomes ``former player #<id>`` (shown as "former player",
  ``accounts.names``), its address, password, names and flags go, and it can never log in;
- seats in forming matches are given up; seats in running or paused matches are handed
  over as an absent seat's are: they play the game's default orders (or the bot's) at each
  deadline and are opened at once for a replacement (``players.takeover``);
- finished matches are kept as they are, with the name anonymised; press messages keep
  their text, their author shown as "former player"; the name is also taken out of match
  names and the director's log;
- the profile's preferences, API tokens, unsubscribe links, away periods, outbox rows,
  read marks, email marks, second-factor devices, login records, push subscriptions,
  webhooks (a match's too, when they set it) and the calendar address are deleted.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_noop

from accounts.models import ApiToken, Profile, UnsubscribeToken
from accounts.names import former_username, is_former
from games import selectors
from games.exceptions import ApplicationError
from games.models import DirectorAction, Match, Notification, Order, Seat
from players.models import Away, Rating, RatingChange, SeatRecord
from press.models import EmailMark, Message, ReadMark
from reach.models import ChannelPrefs, Mode, PushSubscription, Webhook

EXPORT_VERSION = 1
WRONG_PASSWORD = gettext_noop("That is not your password: nothing was deleted.")
ALREADY_DELETED = gettext_noop("This account is already deleted.")
LIVE = (Match.Status.RUNNING, Match.Status.PAUSED)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# --- export ------------------------------------------------------------------------------

def account_export(user: Any, *, lang: str = "en") -> dict[str, Any]:
    """Everything held about ``user``, as JSON-able data: the profile, every match with my
    seat, my orders and the diary lines my seat may read, my messages (written, and the
    private ones to me), ratings, away periods, API tokens (names and dates, never keys)."""
    profile = Profile.objects.filter(user=user).first()
    seats = list(Seat.objects.filter(user=user).select_related("match").order_by("match_id"))
    orders: dict[int, list[dict[str, Any]]] = {}
    for order in (Order.objects.filter(seat__in=seats).select_related("phase")
                  .order_by("id")):
        orders.setdefault(order.seat_id, []).append({
            "phase": order.phase.number, "phase_kind": order.phase.kind,
            "order": order.payload, "default": order.is_default,
            "at": _iso(order.created_at)})
    matches = []
    for seat in seats:
        match = seat.match
        diary = []
        if seat.number is not None:
            diary = [{"seq": line.seq, "turn": line.turn, "phase_kind": line.phase_kind,
                      "kind": line.kind, "text": line.text, "public": line.is_public,
                      "at": _iso(line.created_at)}
                     for line in selectors.diary_for_seat(match, seat.number, lang=lang)]
        matches.append({
            "id": match.pk, "name": match.name, "game": match.game, "status": match.status,
            "seat": seat.number, "joined_at": _iso(seat.joined_at),
            "left_at": _iso(seat.removed_at), "started_at": _iso(match.started_at),
            "finished_at": _iso(match.finished_at),
            "winners": (match.outcome or {}).get("winners") if match.outcome else None,
            "orders": orders.get(seat.pk, []), "diary": diary})
    my_seats = {(s.match_id, s.number) for s in seats if s.number is not None}
    to_me = Q()
    for match_id, number in my_seats:
        to_me |= Q(match_id=match_id, audience__contains=f",{number},")
    written = Message.objects.filter(author=user)
    received = (Message.objects.filter(to_me, channel__in=[Message.Channel.PRIVATE,
                                                          Message.Channel.TEAM],
                                       hidden_at__isnull=True).exclude(author=user)
                if my_seats else Message.objects.none())
    messages = [{"id": m.pk, "match": m.match_id, "channel": m.channel,
                 "from": "me" if m.author_id == user.pk else m.author_name,
                 "to_seats": m.members, "text": m.text, "at": _iso(m.created_at)}
                for m in (written | received).order_by("match_id", "id")]
    return {
        "format": "pbw-account-export", "version": EXPORT_VERSION,
        "generated_at": _iso(timezone_now()),
        "profile": {
            "username": user.get_username(), "email": user.email,
            "date_joined": _iso(user.date_joined), "last_login": _iso(user.last_login),
            **({"timezone": profile.timezone, "language": profile.language,
                "email_mode": profile.email_mode, "reminder_hours": profile.reminder_hours,
                "email_match_events": profile.email_match_events,
                "email_messages": profile.email_messages,
                "email_verified_at": _iso(profile.email_verified_at)} if profile else {})},
        "matches": matches,
        "messages": messages,
        "ratings": [{"game": r.game, "mode": r.mode, "rating": round(r.rating, 1),
                     "rd": round(r.rd, 1), "games": r.games, "updated_at": _iso(r.updated_at)}
                    for r in Rating.objects.filter(user=user).order_by("game", "mode")],
        "rating_changes": [{"match": c.match_id, "game": c.game, "mode": c.mode,
                            "before": round(c.rating_before, 1),
                            "after": round(c.rating_after, 1), "at": _iso(c.created_at)}
                           for c in RatingChange.objects.filter(user=user).order_by("id")],
        "away": [{"starts_at": _iso(a.starts_at), "ends_at": _iso(a.ends_at)}
                 for a in Away.objects.filter(user=user)],
        "api_tokens": [{"name": t.name, "scope": t.scope, "prefix": t.prefix,
                        "created_at": _iso(t.created_at), "expires_at": _iso(t.expires_at),
                        "revoked_at": _iso(t.revoked_at)}
                       for t in ApiToken.objects.filter(user=user)],
        **_reach_export(user),
    }


def _reach_export(user: Any) -> dict[str, Any]:
    """How the site reaches me besides email (``reach``): the channel modes, my browsers'
    push subscriptions, my webhooks (mine and the ones I set on a match) and whether I
    have a calendar feed.

    Never a secret: a subscription's keys (``p256dh``, and ``auth``, the secret the
    browser shares with us to encrypt for it) are left out — they are key material the
    browser made and holds, meaningless to a reader, and ``auth`` would let whoever holds
    the file encrypt messages that browser accepts; nor a webhook's signing secret, nor
    the calendar address (its secret part is the only key to the feed: the export says
    whether one exists, the profile page shows it)."""
    prefs = ChannelPrefs.objects.filter(user=user).first()
    return {
        "notification_channels": {
            "push_mode": prefs.push_mode if prefs else Mode.MY_MOVE,
            "webhook_mode": prefs.webhook_mode if prefs else Mode.MY_MOVE},
        "push_subscriptions": [
            {"endpoint": s.endpoint, "user_agent": s.user_agent,
             "created_at": _iso(s.created_at), "last_ok_at": _iso(s.last_ok_at)}
            for s in PushSubscription.objects.filter(user=user).order_by("id")],
        "webhooks": [
            {"url": h.url, "kind": h.kind, "match": h.match_id,
             "match_name": h.match.name if h.match_id else None,
             "created_at": _iso(h.created_at), "last_ok_at": _iso(h.last_ok_at),
             "failures": h.failures, "disabled_at": _iso(h.disabled_at), "note": h.note}
            for h in Webhook.objects.filter(user=user).select_related("match").order_by("id")],
        "calendar_feed": {"exists": bool(prefs and prefs.calendar_token)},
    }


# --- deletion ----------------------------------------------------------------------------

def _scrub(value: Any, old: str, new: str) -> Any:
    """``value`` (JSON) with the exact string ``old`` replaced by ``new`` wherever it is a
    whole value or a whole word."""
    if isinstance(value, str):
        return value.replace(old, new) if re.search(rf"(?<!\w){re.escape(old)}(?!\w)",
                                                    value) else value
    if isinstance(value, dict):
        return {k: _scrub(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, old, new) for v in value]
    return value


def _leave_seats(user: Any, *, now: datetime) -> None:
    """Seats of forming matches are given up; those of running or paused matches become
    absent seats open for a replacement (lock order: the match, then the seat)."""
    for seat_id, match_id in (Seat.objects.filter(user=user).order_by("match_id")
                              .values_list("pk", "match_id")):
        match = Match.objects.select_for_update().get(pk=match_id)
        seat = Seat.objects.get(pk=seat_id)
        if match.status == Match.Status.FORMING:
            seat.delete()
        elif match.status in LIVE and seat.number is not None and seat.removed_at is None:
            Seat.objects.filter(pk=seat.pk).update(next_nag_at=None, email_mode="")
            record, _ = SeatRecord.objects.get_or_create(seat=seat)
            record.absent_since = record.absent_since or now
            record.takeover_open_since = record.takeover_open_since or now
            record.save(update_fields=["absent_since", "takeover_open_since"])
            DirectorAction.objects.create(match=match, actor=None, action="takeover_open",
                                          details={"seat": seat.number,
                                                   "reason": "account deleted"})
        else:
            continue
        Match.objects.filter(pk=match.pk).update(version=F("version") + 1)


def account_delete(*, user: Any, password: str, now: datetime | None = None) -> None:
    """Delete ``user``'s account after checking ``password`` (module docstring: what goes,
    what stays anonymised). Refusals change nothing."""
    now = now or timezone_now()
    if is_former(user.get_username()) or not user.is_active:
        raise ApplicationError(ALREADY_DELETED, code="ALREADY_DELETED", status=409)
    if not user.check_password(password or ""):
        raise ApplicationError(WRONG_PASSWORD, code="WRONG_PASSWORD", status=400,
                               field="password")
    old = user.get_username()
    new = former_username(user.pk)
    with transaction.atomic():
        _leave_seats(user, now=now)
        match_ids = set(Seat.objects.filter(user=user).values_list("match_id", flat=True))
        match_ids |= set(Match.objects.filter(created_by=user).values_list("pk", flat=True))
        for match in Match.objects.filter(pk__in=match_ids).only("pk", "name"):
            renamed = _scrub(match.name, old, "former player")
            if renamed != match.name:
                Match.objects.filter(pk=match.pk).update(name=renamed[:100])
        for action in DirectorAction.objects.filter(Q(match_id__in=match_ids) | Q(actor=user)):
            details = _scrub(action.details, old, new)
            if details != action.details:
                DirectorAction.objects.filter(pk=action.pk).update(details=details)
        Message.objects.filter(author=user).update(author_name=new)
        ReadMark.objects.filter(user=user).delete()
        EmailMark.objects.filter(user=user).delete()
        Notification.objects.filter(recipient=user).delete()
        ApiToken.objects.filter(user=user).delete()
        UnsubscribeToken.objects.filter(user=user).delete()
        Away.objects.filter(user=user).delete()
        # how the site reached them: nothing is pushed or posted for a deleted account,
        # and its calendar address stops answering
        PushSubscription.objects.filter(user=user).delete()
        Webhook.objects.filter(user=user).delete()
        ChannelPrefs.objects.filter(user=user).delete()
        _delete_devices(user)
        _delete_login_records(old)
        Profile.objects.filter(user=user).delete()
        Profile.objects.create(user=user)
        user.username = new
        user.email = ""
        user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.last_login = None
        user.set_unusable_password()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        # ratings, rating changes, left seats and seat records stay: records of play


def _delete_devices(user: Any) -> None:
    from django_otp import devices_for_user

    for device in devices_for_user(user, confirmed=None):
        device.delete()


def _delete_login_records(username: str) -> None:
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=username).delete()
