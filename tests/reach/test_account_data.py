"""My data export holds how the site reaches me besides email (push subscriptions without
their keys, webhooks without their signing secret, whether a calendar feed exists), and
deleting my account removes all of it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from reach import services
from reach.models import ChannelPrefs, PushSubscription, Webhook
from tests.factories import make_match, make_user
from tests.reach.receiver import BrowserKeys

pytestmark = pytest.mark.django_db


def _setup():
    ann, ben = make_user("ann"), make_user("ben")
    match = make_match(users=[ann, ben], created_by=ann, name="Ann's table")
    info = BrowserKeys().subscription("https://push.example/send/abc")
    sub = PushSubscription.objects.create(user=ann, endpoint=info["endpoint"],
                                          p256dh=info["keys"]["p256dh"],
                                          auth=info["keys"]["auth"], user_agent="Firefox")
    mine = Webhook.objects.create(user=ann, url="https://hooks.example/mine", kind="discord")
    group = Webhook.objects.create(user=ann, url="https://hooks.example/group", match=match)
    Webhook.objects.create(user=ben, url="https://hooks.example/bens")
    services.prefs_set(user=ann, push_mode="per_phase", webhook_mode="off")
    return ann, ben, match, sub, mine, group


def test_the_export_lists_subscriptions_webhooks_and_the_calendar_without_secrets():
    ann, ben, match, sub, mine, group = _setup()
    client = Client()
    client.force_login(ann)
    data = client.get(reverse("account-export")).json()
    assert data["calendar_feed"] == {"exists": False}
    assert data["notification_channels"] == {"push_mode": "per_phase", "webhook_mode": "off"}
    [s] = data["push_subscriptions"]
    assert s["endpoint"] == sub.endpoint and s["user_agent"] == "Firefox"
    assert set(s) == {"endpoint", "user_agent", "created_at", "last_ok_at"}
    hooks = {h["url"]: h for h in data["webhooks"]}
    assert set(hooks) == {mine.url, group.url}  # not ben's
    assert hooks[mine.url]["kind"] == "discord" and hooks[mine.url]["match"] is None
    assert hooks[group.url]["match"] == match.pk
    assert hooks[group.url]["match_name"] == "Ann's table"
    text = client.get(reverse("account-export")).content.decode()
    for secret in (sub.auth, sub.p256dh, mine.secret, group.secret):
        assert secret not in text
    token = services.calendar_token(ann)
    data = client.get(reverse("account-export")).json()
    assert data["calendar_feed"] == {"exists": True}
    assert token not in client.get(reverse("account-export")).content.decode()


def test_deleting_the_account_removes_them():
    ann, ben, match, sub, mine, group = _setup()
    services.calendar_token(ann)
    client = Client()
    client.force_login(ann)
    resp = client.post(reverse("account-delete"), {"password": "pw-" + ann.username})
    assert resp.status_code == 302
    assert not PushSubscription.objects.filter(user=ann).exists()
    assert not Webhook.objects.filter(user=ann).exists()
    assert not ChannelPrefs.objects.filter(user=ann).exists()
    assert Webhook.objects.filter(user=ben).count() == 1
