"""One policy for every channel: the modes (my move / every phase / off) per channel, the
per-match "off" muting every channel, away periods, and nothing while the player is on
the page — the same rules as email, on the same outbox rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils.timezone import now as timezone_now

from games import selectors
from games.lib import presence
from games.models import Notification, Seat
from games.services.notifications import new_phase_rows, send_decisions
from reach.models import ChannelPrefs, PushSubscription, Webhook
from tests.factories import make_match, make_user
from tests.reach.helpers import close_open_phase

pytestmark = pytest.mark.django_db


def _setup(push_mode, webhook_mode):
    me, other = make_user(), make_user()
    match = make_match(users=[me, other])
    ChannelPrefs.objects.create(user=me, push_mode=push_mode, webhook_mode=webhook_mode)
    PushSubscription.objects.create(user=me, endpoint="http://127.0.0.1:9/p", p256dh="x",
                                    auth="y")
    Webhook.objects.create(user=me, url="http://127.0.0.1:9/w")
    return me, other, match


def _rows(match, awaited_users):
    phase = selectors.current_phase(match)
    seats = list(Seat.objects.filter(match=match).select_related("user__profile"))
    phase.awaited = [s.number for s in seats if s.user_id in awaited_users]
    return new_phase_rows(match=match, closed=phase, opened=phase, from_seq=1, to_seq=0,
                          seats=seats)


@pytest.mark.parametrize("mode, awaited, expected", [
    ("my_move", True, {"push", "webhook"}),
    ("my_move", False, set()),
    ("per_phase", True, {"push", "webhook"}),
    ("per_phase", False, {"push", "webhook"}),
    ("off", True, set()),
    ("off", False, set()),
])
def test_the_policy_matrix(mode, awaited, expected):
    me, other, match = _setup(mode, mode)
    rows = _rows(match, {me.pk} if awaited else {other.pk})
    assert {r.channel for r in rows if r.recipient_id == me.pk and r.channel != "email"} \
        == expected


def test_each_channel_has_its_own_mode():
    me, other, match = _setup("my_move", "off")
    rows = _rows(match, {me.pk})
    assert {r.channel for r in rows if r.recipient_id == me.pk} == {"email", "push"}


def test_a_match_set_to_off_mutes_every_channel():
    me, other, match = _setup("per_phase", "per_phase")
    Seat.objects.filter(match=match, user=me).update(email_mode="off")
    rows = _rows(match, {me.pk})
    assert [r for r in rows if r.recipient_id == me.pk] == []


def test_email_off_push_on():
    me, other, match = _setup("my_move", "off")
    me.profile.email_mode = "off"
    me.profile.save()
    rows = _rows(match, {me.pk})
    assert {r.channel for r in rows if r.recipient_id == me.pk} == {"push"}


def test_nothing_while_on_the_page_and_nothing_while_away(receiver):
    from players.models import Away

    me, other, match = _setup("per_phase", "per_phase")
    PushSubscription.objects.update(endpoint=receiver.url + "/p")
    Webhook.objects.update(url=receiver.url + "/w")
    now = timezone_now()
    presence.mark_seen(match_id=match.pk, user_id=me.pk, now=now)
    close_open_phase(match)
    assert receiver.received == []
    skipped = Notification.objects.filter(channel__in=["push", "webhook"])
    assert skipped.count() == 2 and all("on the page" in r.error for r in skipped)
    # away: skipped as emails are
    presence.forget_written()
    from django.core.cache import cache
    cache.clear()
    Away.objects.create(user=me, starts_at=now - timedelta(hours=1),
                              ends_at=now + timedelta(days=1))
    close_open_phase(match)
    assert receiver.received == []
    away = Notification.objects.filter(channel__in=["push", "webhook"], error__contains="away")
    assert away.count() == 2


def test_send_time_preference_wins():
    me, other, match = _setup("my_move", "my_move")
    rows = [r for r in _rows(match, {me.pk}) if r.channel != "email"]
    saved = Notification.objects.bulk_create(rows)
    ChannelPrefs.objects.filter(user=me).update(push_mode="off", webhook_mode="off")
    for row in saved:
        row.refresh_from_db()
    decisions = send_decisions(saved, now=timezone_now())
    assert all(d.skip == "preferences" for d in decisions.values())
