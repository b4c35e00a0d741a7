"""Webhooks: signed JSON, Discord and Slack bodies, the API (with its refusals), a match's
own webhook carrying public news only, retries, disabling after repeated permanent
failures, and the SSRF guard (production refuses loopback, private, link-local, metadata
and plain-HTTP addresses; redirects are not followed)."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket

import pytest
from django.urls import reverse

from games.models import Notification
from reach import safehttp
from reach.models import Webhook
from tests.factories import make_match, make_user
from tests.reach.helpers import close_open_phase, post_json

pytestmark = pytest.mark.django_db


def _add(client, user, url, kind="json", match=None):
    client.force_login(user)
    resp = post_json(client, reverse("reach:api-webhooks"),
                     {"url": url, "kind": kind, "match": match})
    return resp


def test_a_user_webhook_gets_signed_json_with_a_stable_id(client, receiver):
    me = make_user()
    match = make_match(users=[me, make_user()])
    resp = _add(client, me, receiver.url + "/hook")
    assert resp.status_code == 201, resp.content
    secret = resp.json()["webhook"]["secret"]
    close_open_phase(match)
    [got] = receiver.received
    stamp, signature = got.headers["x-phases-timestamp"], got.headers["x-phases-signature"]
    expected = hmac.new(secret.encode(), stamp.encode() + b"." + got.body, hashlib.sha256)
    assert signature == "sha256=" + expected.hexdigest()
    doc = json.loads(got.body)
    row = Notification.objects.get(channel="webhook")
    assert doc["id"] == got.headers["x-phases-delivery"] and doc["id"].startswith(f"{row.pk}.")
    assert doc["event"] == "my_move" and doc["match"]["id"] == match.pk
    assert doc["phase"]["deadline"] is not None


@pytest.mark.parametrize("kind, key", [("discord", "content"), ("slack", "text")])
def test_discord_and_slack_bodies(client, receiver, kind, key):
    me = make_user()
    match = make_match(users=[me, make_user()], name="Friday table")
    _add(client, me, receiver.url + "/chat", kind=kind)
    close_open_phase(match)
    [got] = receiver.received
    text = json.loads(got.body)[key]
    assert "Friday table" in text and f"/m/{match.pk}/" in text
    assert "x-phases-signature" not in got.headers


def test_api_lists_and_deletes(client, receiver):
    me = make_user()
    hook = _add(client, me, receiver.url + "/a").json()["webhook"]
    assert [h["id"] for h in client.get(reverse("reach:api-webhooks")).json()["webhooks"]] \
        == [hook["id"]]
    assert post_json(client, reverse("reach:api-webhooks"), {"id": hook["id"]},
                     method="delete").json() == {"ok": True}
    assert not Webhook.objects.exists()
    # someone else's id: 404, nothing removed
    other = make_user()
    theirs = Webhook.objects.create(user=other, url=receiver.url + "/b")
    resp = client.delete(reverse("reach:api-webhook", args=[theirs.pk]))
    assert resp.status_code == 404 and Webhook.objects.filter(pk=theirs.pk).exists()


@pytest.mark.parametrize("body, field, status", [
    ({"url": "not a url"}, "url", 400),
    ({"url": "https://example.org/x", "kind": "teams"}, "kind", 400),
    ({"url": "https://example.org/x", "match": 999999}, "match", 404),
    ({"url": "https://example.org/x", "extra": 1}, "extra", 400),
])
def test_bad_webhooks_are_refused(client, body, field, status):
    client.force_login(make_user())
    resp = post_json(client, reverse("reach:api-webhooks"), body)
    assert resp.status_code == status and resp.json()["error"]["field"] == field
    assert not Webhook.objects.exists()


def test_only_director_or_creator_hooks_a_match(client, receiver, director):
    creator, player = make_user(), make_user()
    match = make_match(users=[creator, player], created_by=creator)
    assert _add(client, player, receiver.url + "/g", match=match.pk).status_code == 403
    assert _add(client, creator, receiver.url + "/g", match=match.pk).status_code == 201
    assert _add(client, director, receiver.url + "/g", match=match.pk).status_code == 201


def test_a_match_webhook_carries_no_hidden_information(client, receiver):
    creator, other = make_user("alice"), make_user("bob")
    match = make_match(users=[creator, other], created_by=creator, name="Group table")
    _add(client, creator, receiver.url + "/group", match=match.pk)
    close_open_phase(match)
    [got] = [r for r in receiver.received if r.path == "/group"]
    doc = json.loads(got.body)
    assert doc["event"] == "phase_opened" and doc["match"]["name"] == "Group table"
    text = got.body.decode()
    # no reader, seat, awaited set, diary, order or state: public facts only
    for secret in ("alice", "bob", "awaited", "seat", "diary", "order", "state", "secret"):
        assert secret not in text, secret
    assert set(doc) == {"id", "event", "created_at", "match", "phase", "text"}
    assert set(doc["phase"]) == {"number", "kind", "turn", "label", "deadline",
                                 "deadline_local"}


def test_test_fire(client, receiver):
    me = make_user()
    hook = _add(client, me, receiver.url + "/t").json()["webhook"]
    resp = client.post(reverse("reach:api-webhook-test", args=[hook["id"]]))
    assert resp.json()["delivered"] is True
    assert json.loads(receiver.received[0].body)["event"] == "test"


def test_permanent_failures_disable_the_webhook_with_a_note(client, receiver, settings):
    settings.WEBHOOK_MAX_FAILURES = 2
    me = make_user()
    hook = _add(client, me, receiver.url + "/dead").json()["webhook"]
    receiver.default_status = 404
    for _ in range(2):
        client.post(reverse("reach:api-webhook-test", args=[hook["id"]]))
    row = Webhook.objects.get()
    assert row.disabled_at is not None and "404" in row.note
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "Disabled" in page and "404" in page


def test_retry_then_failure_is_recorded_on_the_row(client, receiver):
    me = make_user()
    match = make_match(users=[me, make_user()])
    _add(client, me, receiver.url + "/flaky")
    receiver.statuses = [500]
    close_open_phase(match)
    row = Notification.objects.get(channel="webhook")
    assert row.sent_at is None and "500" in row.error and row.failed_at is None


def test_redirects_are_not_followed(client, receiver):
    me = make_user()
    hook = _add(client, me, receiver.url + "/moved").json()["webhook"]
    receiver.statuses = [302]
    receiver.extra_headers = {"Location": receiver.url + "/elsewhere"}
    resp = client.post(reverse("reach:api-webhook-test", args=[hook["id"]])).json()
    assert resp["delivered"] is False and "redirect" in resp["detail"]
    assert [r.path for r in receiver.received] == ["/moved"]


# --- SSRF ------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://127.0.0.1/x", "https://localhost/x", "https://[::1]/x", "https://10.0.0.5/x",
    "https://192.168.1.1/x", "https://172.16.0.1/x", "https://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/x", "https://[fd00:ec2::254]/x", "https://100.64.0.1/x",
    "https://0.0.0.0/x", "https://[::ffff:127.0.0.1]/x", "http://93.184.216.34/x",
    "https://user:pw@93.184.216.34/x", "file:///etc/passwd", "gopher://93.184.216.34/",
])
def test_ssrf_refusals_in_production(settings, url):
    settings.NOTIFY_ALLOW_LOOPBACK = False
    with pytest.raises(safehttp.Refused):
        safehttp.check(url)


def test_a_name_resolving_to_a_private_address_is_refused(settings, monkeypatch):
    settings.NOTIFY_ALLOW_LOOPBACK = False
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 443)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", 443))])
    with pytest.raises(safehttp.Refused):
        safehttp.check("https://rebind.example/x")


def test_a_public_https_address_passes_and_is_pinned(settings, monkeypatch):
    settings.NOTIFY_ALLOW_LOOPBACK = False
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 443))])
    target = safehttp.check("https://hooks.example/x?y=1")
    assert (target.host, target.address, target.path) == ("hooks.example", "93.184.216.34",
                                                          "/x?y=1")


def test_the_api_refuses_a_private_webhook_in_production(client, settings):
    settings.NOTIFY_ALLOW_LOOPBACK = False
    resp = _add(client, make_user(), "https://192.168.0.10/hook")
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "URL_REFUSED"
    assert not Webhook.objects.exists()


def test_loopback_allowed_only_when_set(settings):
    settings.NOTIFY_ALLOW_LOOPBACK = True
    assert safehttp.check("http://127.0.0.1:9/x").address == "127.0.0.1"
    with pytest.raises(safehttp.Refused):
        safehttp.check("http://10.0.0.1/x")  # private stays refused
