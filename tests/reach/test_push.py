"""Web push: the key, storing and removing subscriptions (with clear refusals), delivery
through the outbox encrypted per RFC 8291 and signed with VAPID, 404/410 cleanup and
retries with backoff."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Notification
from reach import vapid
from reach.models import PushSubscription
from tests.factories import make_match, make_user
from tests.reach.helpers import close_open_phase, post_json
from tests.reach.receiver import BrowserKeys

pytestmark = pytest.mark.django_db


def _subscribe(client, user, endpoint):
    client.force_login(user)
    keys = BrowserKeys()
    resp = post_json(client, reverse("reach:api-push-subscriptions"), keys.subscription(endpoint))
    assert resp.status_code == 201, resp.content
    return keys


def test_the_public_key_is_the_settings_key(client):
    client.force_login(make_user())
    data = client.get(reverse("reach:api-push-key")).json()
    assert data["ok"] and data["key"] == vapid.public_key_b64(vapid.server_key())


def test_no_key_no_push(client, settings):
    settings.VAPID_PRIVATE_KEY = ""
    client.force_login(make_user())
    resp = client.get(reverse("reach:api-push-key"))
    assert resp.status_code == 503 and resp.json()["error"]["code"] == "PUSH_OFF"
    resp = post_json(client, reverse("reach:api-push-subscriptions"),
                     BrowserKeys().subscription("http://127.0.0.1:9/x"))
    assert resp.status_code == 409 and not PushSubscription.objects.exists()


def test_encryption_round_trip():
    from reach.push import encrypt

    keys = BrowserKeys()
    secret = json.dumps({"title": "Your move"}).encode()
    body = encrypt(keys.subscription("https://push.example/x"), secret)
    assert secret not in body and keys.decrypt(body) == secret


@pytest.mark.parametrize("body, field", [
    ({"endpoint": "http://127.0.0.1:9/x"}, "keys"),
    ({"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": "bad", "auth": "AAAA"}}, "keys"),
    ({"endpoint": "ftp://127.0.0.1/x", "keys": BrowserKeys().subscription("x")["keys"]},
     "endpoint"),
    ({"endpoint": 5, "keys": BrowserKeys().subscription("x")["keys"]}, "endpoint"),
])
def test_bad_subscriptions_are_refused_and_change_nothing(client, body, field):
    client.force_login(make_user())
    resp = post_json(client, reverse("reach:api-push-subscriptions"), body)
    assert resp.status_code == 400 and resp.json()["error"]["field"] == field
    assert not PushSubscription.objects.exists()


def test_store_list_delete(client, receiver):
    user = make_user()
    _subscribe(client, user, receiver.url + "/sub/1")
    # the same endpoint again replaces, not duplicates
    _subscribe(client, user, receiver.url + "/sub/1")
    listed = client.get(reverse("reach:api-push-subscriptions")).json()["subscriptions"]
    assert [s["endpoint"] for s in listed] == [receiver.url + "/sub/1"]
    resp = post_json(client, reverse("reach:api-push-subscriptions"),
                     {"endpoint": receiver.url + "/sub/1"}, method="delete")
    assert resp.json() == {"ok": True, "removed": 1}
    assert not PushSubscription.objects.exists()


def test_a_new_phase_pushes_an_encrypted_signed_payload(client, receiver):
    me, other = make_user(), make_user()
    match = make_match(users=[me, other])
    keys = _subscribe(client, me, receiver.url + "/sub/me")
    close_open_phase(match)
    pushes = [r for r in receiver.received if r.path == "/sub/me"]
    assert len(pushes) == 1
    push = pushes[0]
    assert push.headers["content-encoding"] == "aes128gcm"
    assert push.headers["authorization"].startswith("vapid t=")
    assert vapid.public_key_b64(vapid.server_key()) in push.headers["authorization"]
    assert int(push.headers["ttl"]) >= 60
    payload = json.loads(keys.decrypt(push.body))
    assert match.name in payload["title"] and payload["tag"] == f"match-{match.pk}"
    assert payload["url"].endswith(f"/m/{match.pk}/")
    row = Notification.objects.get(channel="push")
    assert row.sent_at is not None and row.target_id == PushSubscription.objects.get().pk


def test_410_removes_the_subscription(client, receiver):
    me = make_user()
    match = make_match(users=[me, make_user()])
    _subscribe(client, me, receiver.url + "/gone")
    receiver.statuses = [410]
    close_open_phase(match)
    assert not PushSubscription.objects.exists()
    row = Notification.objects.get(channel="push")
    assert row.sent_at is not None and "410" in row.error and row.failed_at is None


def test_a_5xx_is_retried_with_backoff_then_delivered(client, receiver):
    from games.services.outbox import notifications_send_batch

    me = make_user()
    match = make_match(users=[me, make_user()])
    _subscribe(client, me, receiver.url + "/busy")
    receiver.statuses = [503]
    close_open_phase(match)
    row = Notification.objects.get(channel="push")
    assert row.sent_at is None and row.failed_at is None and "503" in row.error
    assert row.next_attempt_at > row.created_at  # backoff
    report = notifications_send_batch(ids=[row.pk], now=row.next_attempt_at)
    row.refresh_from_db()
    assert report.sent == [row.pk] and row.sent_at is not None
    assert len(receiver.received) == 2  # the one retry, no more


def _production(code: str, tmp_path, **env_extra):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items()
           if k not in {"PBW_EMBEDDED", "VAR_DIR", "VAPID_PRIVATE_KEY", "PBW_TEST_VAPID_KEY"}}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": "s" * 50,
                "DATABASE_URL": "sqlite:///:memory:", "EMAIL_URL": "smtp://mail.example.org:25",
                "ALLOWED_HOSTS": "play.example.org", "VAR_DIR": str(tmp_path), **env_extra})
    return subprocess.run([sys.executable, "-c", "import django; django.setup()\n" + code],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_production_never_makes_a_key_and_refuses_a_bad_one(tmp_path):
    # a key file the embedded server made is not used, and none is made
    (tmp_path / "vapid_private.pem").write_text(vapid.new_private_pem())
    proc = _production("from reach import vapid; print(vapid.server_key())", tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "None", proc.stderr
    proc = _production("pass", tmp_path, VAPID_PRIVATE_KEY="not-a-key")
    assert proc.returncode != 0 and "VAPID_PRIVATE_KEY" in proc.stderr
    pem = vapid.new_private_pem()
    proc = _production("from reach import vapid; print(vapid.public_key_b64(vapid.server_key()))",
                       tmp_path, VAPID_PRIVATE_KEY=pem)
    assert proc.returncode == 0 and proc.stdout.strip() == vapid.public_key_b64(vapid.load(pem))
