"""The calendar feed (private, revocable, the deadlines of the phases awaiting me) and the
installable site (manifest, service worker from the root, offline page, CSP unchanged)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from games import selectors
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def test_the_calendar_lists_my_awaited_deadlines_and_can_be_revoked(client):
    me, other = make_user(), make_user()
    match = make_match(users=[me, other], name="Long game")
    phase = selectors.current_phase(match)
    client.force_login(me)
    url = client.get(reverse("reach:api-calendar")).json()["url"]
    assert url.startswith("http://testserver/calendar/") and url.endswith(".ics")
    path = url.removeprefix("http://testserver")
    resp = Client().get(path)  # no login: the token is the key
    assert resp["Content-Type"].startswith("text/calendar")
    cal = Calendar.from_ical(resp.content)
    events = [e for e in cal.walk("VEVENT")]
    assert len(events) == 1
    assert events[0].decoded("dtend") == phase.deadline_at.replace(microsecond=0)
    assert "Long game" in str(events[0]["summary"])
    # revoked: the old link is gone, a new one works
    assert client.delete(reverse("reach:api-calendar")).json() == {"ok": True}
    assert Client().get(path).status_code == 404
    new = client.get(reverse("reach:api-calendar")).json()["url"]
    assert new != url and Client().get(new.removeprefix("http://testserver")).status_code == 200


def test_the_calendar_shows_no_phase_that_waits_for_someone_else(client):
    me, other = make_user(), make_user()
    match = make_match(users=[me, other])
    phase = selectors.current_phase(match)
    mine = match.seats.get(user=me).number
    phase.awaited = [n for n in phase.awaited if n != mine]
    phase.save()
    client.force_login(me)
    url = client.get(reverse("reach:api-calendar")).json()["url"]
    cal = Calendar.from_ical(Client().get(url.removeprefix("http://testserver")).content)
    assert list(cal.walk("VEVENT")) == []


def test_a_wrong_calendar_token_is_404(client):
    assert Client().get("/calendar/nope.ics").status_code == 404
    assert Client().get("/calendar/" + "x" * 300 + ".ics").status_code == 404


def test_manifest_is_valid_and_linked(client):
    resp = client.get("/manifest.webmanifest")
    assert resp["Content-Type"] == "application/manifest+json"
    data = json.loads(resp.content)
    assert data["name"] and data["start_url"].startswith("/") and data["display"] == "standalone"
    assert {"192x192", "512x512"} <= {i["sizes"] for i in data["icons"]}
    assert any(i.get("purpose") == "maskable" for i in data["icons"])
    from django.contrib.staticfiles import finders

    for icon in data["icons"]:  # collected and served by WhiteNoise on the real server
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    page = client.get(reverse("accounts:login")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'name="theme-color" media="(prefers-color-scheme: dark)"' in page
    assert 'name="theme-color" media="(prefers-color-scheme: light)"' in page


def test_service_worker_from_the_root_and_csp_unchanged(client):
    resp = client.get("/sw.js")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("application/javascript")
    assert resp["Service-Worker-Allowed"] == "/" and "no-cache" in resp["Cache-Control"]
    body = resp.content.decode()
    for needle in ('addEventListener("push"', 'addEventListener("notificationclick"',
                   "showNotification", "openWindow", "setAppBadge", "/offline/"):
        assert needle in body, needle
    page = client.get(reverse("accounts:login"))
    csp = page["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert client.get("/offline/").status_code == 200


def test_profile_shows_the_toggle_and_the_forms(client):
    me = make_user()
    client.force_login(me)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'id="push-toggle"' in page and 'id="calendar-url"' in page
    assert reverse("reach:webhook-add") in page
    resp = client.post(reverse("reach:prefs"), {"push_mode": "per_phase", "webhook_mode": "off"})
    assert resp.status_code == 302
    me.channel_prefs.refresh_from_db()
    assert (me.channel_prefs.push_mode, me.channel_prefs.webhook_mode) == ("per_phase", "off")
    resp = client.post(reverse("reach:prefs"), {"push_mode": "loud", "webhook_mode": "off"})
    me.channel_prefs.refresh_from_db()
    assert me.channel_prefs.push_mode == "per_phase"  # bad input changes nothing
