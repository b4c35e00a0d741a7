"""Match news (pause, resume, extension, takeover, seat opened, cancelled, "you died") by
push and webhooks too, under each channel's policy (its mode, the per-match mute, away,
joined while waiting, nothing while on the page), in the reader's language; a match's own
webhook gets only the news everyone at the table reads."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import translation
from django.utils.timezone import now as timezone_now

from games.lib import presence
from games.models import Notification, Seat
from games.services import news
from games.services.matches import match_end, match_pause
from reach.models import ChannelPrefs, PushSubscription, Webhook
from tests.factories import make_match, make_user
from tests.reach.receiver import BrowserKeys

pytestmark = pytest.mark.django_db


def _reader(receiver, *, language="en", push_mode="my_move", webhook_mode="my_move"):
    me, other = make_user("reader"), make_user("other")
    me.profile.language = language
    me.profile.save()
    match = make_match(users=[me, other], name="News table", created_by=other)
    ChannelPrefs.objects.create(user=me, push_mode=push_mode, webhook_mode=webhook_mode)
    keys = BrowserKeys()
    info = keys.subscription(receiver.url + "/p")
    PushSubscription.objects.create(user=me, endpoint=info["endpoint"],
                                    p256dh=info["keys"]["p256dh"], auth=info["keys"]["auth"])
    Webhook.objects.create(user=me, url=receiver.url + "/w")
    Notification.objects.all().delete()
    return me, other, match, keys


def _pause(match, now=None):
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_pause(match=match, now=now)


def _mine(receiver, keys):
    pushes = [json.loads(keys.decrypt(r.body)) for r in receiver.received if r.path == "/p"]
    hooks = [json.loads(r.body) for r in receiver.received if r.path == "/w"]
    return pushes, hooks


def test_a_pause_goes_by_push_and_webhook_in_the_readers_language(receiver):
    me, other, match, keys = _reader(receiver, language="it")
    _pause(match)
    pushes, hooks = _mine(receiver, keys)
    assert len(pushes) == 1 and len(hooks) == 1
    with translation.override("it"):
        paused = translation.gettext("The match is paused")
    assert paused != "The match is paused"  # the catalogue has it
    assert pushes[0]["title"] == f"{paused}: News table"
    assert pushes[0]["event"] == "match_news" and pushes[0]["tag"] == f"match-{match.pk}-news"
    assert pushes[0]["url"].endswith(f"/{match.pk}/") or str(match.pk) in pushes[0]["url"]
    assert hooks[0]["event"] == "match_news" and hooks[0]["news"][0]["event"] == "paused"
    assert hooks[0]["news"][0]["title"] == paused
    sent = Notification.objects.filter(recipient=me, channel__in=["push", "webhook"])
    assert sent.count() == 2 and all(r.sent_at and not r.error for r in sent)


@pytest.mark.parametrize("language", ["ja", "es"])
def test_news_texts_are_translated(receiver, language):
    me, other, match, keys = _reader(receiver, language=language)
    seat = Seat.objects.get(match=match, user=me)
    with TestCase.captureOnCommitCallbacks(execute=True):
        news.news_add(match=match, user=me, event=news.DIED, seat=seat,
                      params={"turn": 2, "phase_kind": "day", "from_seq": 1, "to_seq": 0})
    pushes, hooks = _mine(receiver, keys)
    with translation.override(language):
        died = translation.gettext("You died")
    assert died != "You died"
    assert pushes[0]["title"].startswith(died) and hooks[0]["news"][0]["event"] == "died"
    assert "died" not in hooks[0]["text"].lower() or language == "en"


def test_each_channel_mode_and_the_match_mute(receiver):
    me, other, match, keys = _reader(receiver, push_mode="off", webhook_mode="per_phase")
    _pause(match)
    pushes, hooks = _mine(receiver, keys)
    assert pushes == [] and len(hooks) == 1
    assert not Notification.objects.filter(recipient=me, channel="push").exists()
    receiver.received.clear()
    Seat.objects.filter(match=match, user=me).update(email_mode="off")  # this match muted
    match.refresh_from_db()
    from games.services.matches import match_resume

    with TestCase.captureOnCommitCallbacks(execute=True):
        match_resume(match=match)
    assert _mine(receiver, keys) == ([], [])
    assert not Notification.objects.filter(
        recipient=me, channel__in=["push", "webhook"], payload__events__0__event="resumed"
    ).exists()


def test_nothing_while_on_the_page_and_table_news_wait_out_an_away_period(receiver):
    from players.models import Away

    me, other, match, keys = _reader(receiver)
    now = timezone_now()
    presence.mark_seen(match_id=match.pk, user_id=me.pk, now=now)
    _pause(match, now=now)
    assert _mine(receiver, keys) == ([], [])
    skipped = Notification.objects.filter(recipient=me, channel__in=["push", "webhook"])
    assert skipped.count() == 2 and all("on the page" in r.error for r in skipped)

    from django.core.cache import cache

    presence.forget_written()
    cache.clear()
    Away.objects.create(user=me, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=1))
    Notification.objects.all().delete()
    seat = Seat.objects.get(match=match, user=me)
    with TestCase.captureOnCommitCallbacks(execute=True):
        news.news_add(match=match, user=me, event=news.EXTENDED, seat=seat,
                      params={"phase_kind": "day", "turn": 1, "deadline": None})
    assert _mine(receiver, keys) == ([], [])
    assert all("away" in r.error for r in Notification.objects.filter(
        recipient=me, channel__in=["push", "webhook"]))
    # news about the reader still come while away, as by email
    with TestCase.captureOnCommitCallbacks(execute=True):
        news.news_add(match=match, user=me, event=news.DIED, seat=seat,
                      params={"turn": 1, "phase_kind": "day", "from_seq": 1, "to_seq": 0})
    pushes, hooks = _mine(receiver, keys)
    assert len(pushes) == 1 and len(hooks) == 1


def test_news_waiting_for_a_target_join_one_message(receiver):
    me, other, match, keys = _reader(receiver)
    seat = Seat.objects.get(match=match, user=me)
    with TestCase.captureOnCommitCallbacks(execute=False):  # not sent yet
        news.news_add(match=match, user=me, event=news.PAUSED, seat=seat)
        news.news_add(match=match, user=me, event=news.RESUMED, seat=seat)
    for channel in ("push", "webhook"):
        [row] = Notification.objects.filter(recipient=me, channel=channel)
        assert [e["event"] for e in row.payload["events"]] == ["paused", "resumed"]
    from games.services.outbox import notifications_send_batch

    notifications_send_batch()
    pushes, hooks = _mine(receiver, keys)
    assert pushes[0]["title"] == "2 updates: News table"
    assert [n["event"] for n in hooks[0]["news"]] == ["paused", "resumed"]


def test_a_match_webhook_gets_table_news_and_nothing_personal(receiver):
    me, other, match, keys = _reader(receiver)
    Webhook.objects.create(user=other, match=match, url=receiver.url + "/group")
    _pause(match)
    [got] = [r for r in receiver.received if r.path == "/group"]
    doc = json.loads(got.body)
    assert doc["event"] == "match_news" and [n["event"] for n in doc["news"]] == ["paused"]
    assert set(doc) == {"id", "event", "created_at", "match", "phase", "text", "news"}
    for secret in ("reader", "other", "seat", "diary", "awaited", "secret"):
        assert secret not in got.body.decode(), secret
    receiver.received.clear()
    # a death, a takeover of my seat: the reader's own, never the group's
    seat = Seat.objects.get(match=match, user=me)
    with TestCase.captureOnCommitCallbacks(execute=True):
        news.news_add(match=match, user=me, event=news.DIED, seat=seat,
                      params={"turn": 1, "phase_kind": "day", "from_seq": 1, "to_seq": 0})
        news.news_add(match=match, user=me, event=news.REPLACED, seat=seat,
                      params={"new": "someone"})
    assert news.news_to_match(match=match, event=news.DIED, params={"turn": 1}) == 0
    assert not Notification.objects.filter(kind="group_news",
                                           payload__events__0__event="died").exists()
    assert [r.path for r in receiver.received if r.path == "/group"] == []
    # a row that says otherwise is cut down when sent
    row = Notification(recipient=other, kind="group_news", match=match, channel="webhook",
                       payload={"group": True, "events": [{"event": "died", "turn": 1},
                                                          {"event": "paused"}]})
    from reach.messages import webhook_document

    assert [n["event"] for n in webhook_document(row)["news"]] == ["paused"]


def test_a_cancelled_forming_match_tells_its_webhook(receiver):
    creator, joiner = make_user("creator"), make_user("joiner")
    match = make_match(users=[creator, joiner], created_by=creator, start=False)
    Webhook.objects.create(user=creator, match=match, url=receiver.url + "/group")
    director = make_user("director")
    director.is_staff = True
    director.save()
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_end(match=match, actor=director, reason="not enough players")
    [got] = [r for r in receiver.received if r.path == "/group"]
    doc = json.loads(got.body)
    assert [n["event"] for n in doc["news"]] == ["cancelled"]
    assert "not enough players" in doc["text"]


def test_a_death_riding_in_the_phase_email_still_goes_by_push_and_webhook(receiver):
    from games import selectors

    me, other, match, keys = _reader(receiver)
    seat = Seat.objects.select_related("user__profile").get(match=match, user=me)
    phase = selectors.current_phase(match)
    email = Notification(recipient=me, kind=Notification.Kind.NEW_PHASE, match=match,
                         phase=phase, payload={"seat": seat.number})
    with TestCase.captureOnCommitCallbacks(execute=True):
        extra = news.deaths_attach(match=match, closed=phase, dead={seat.number},
                                   seats=[seat], rows=[email], from_seq=1, to_seq=0)
    assert extra == []  # the email says it: no news email of its own
    assert email.payload["news"][0]["event"] == "died"
    assert not Notification.objects.filter(recipient=me, channel="email").exists()
    pushes, hooks = _mine(receiver, keys)
    assert pushes[0]["title"] == "You died: News table"
    assert [n["event"] for n in hooks[0]["news"]] == ["died"]
