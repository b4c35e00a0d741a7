"""Issue 25's "Done when", on the demo data of ``make run`` (``seed_demo``):

1. the manifest and the service worker are served and valid;
2. demo1 stores a push subscription whose endpoint is a local receiver (the test settings
   allow loopback, as the run command's defaults do);
3. when the phase awaiting demo1 opens, the receiver gets a push that decrypts (RFC 8291
   aes128gcm) to a payload naming the match;
4. a generic webhook registered by demo1 receives a signed JSON delivery for that phase;
5. demo1's calendar URL parses as iCalendar and lists that phase's deadline;
6. a webhook to a private address is refused under the production settings.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from icalendar import Calendar

from games import selectors
from games.models import Match
from games.services.phases import phase_close
from tests.reach.receiver import BrowserKeys, Receiver

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]


def _json(client, method, url, body):
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


def test_done_when_push_webhook_calendar_on_the_demo(settings):
    from games.management.commands.run import seed_demo

    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    anonymous = Client()

    # 1. manifest and service worker
    manifest = anonymous.get("/manifest.webmanifest")
    assert manifest.status_code == 200
    data = json.loads(manifest.content)
    assert data["name"] and data["start_url"] and data["icons"] and data["display"] == "standalone"
    sw = anonymous.get("/sw.js")
    assert sw.status_code == 200 and sw["Service-Worker-Allowed"] == "/"
    assert 'addEventListener("push"' in sw.content.decode()
    node = subprocess.run(["node", "--check", "-"], input=sw.content, capture_output=True) \
        if _which("node") else None
    assert node is None or node.returncode == 0, node.stderr

    receiver = Receiver()
    try:
        demo1 = get_user_model().objects.get(username="demo1")
        client = Client()
        client.force_login(demo1)
        # 2. a push subscription to the local receiver, and a generic webhook
        keys = BrowserKeys()
        resp = _json(client, "post", "/api/push/subscriptions/",
                     keys.subscription(receiver.url + "/push/demo1"))
        assert resp.status_code == 201, resp.content
        key = client.get("/api/push/key").json()["key"]
        resp = _json(client, "post", "/api/webhooks/",
                     {"url": receiver.url + "/hook/demo1", "kind": "json", "match": None})
        assert resp.status_code == 201, resp.content
        secret = resp.json()["webhook"]["secret"]

        # 3. the phase awaiting demo1 opens (the Kill Game demo's next phase)
        match = Match.objects.get(game="killgame")
        closing = selectors.current_phase(match)
        with TestCase.captureOnCommitCallbacks(execute=True):
            phase_close(phase_id=closing.pk, force=True)
        opened = selectors.current_phase(match)
        seat = match.seats.get(user=demo1)
        assert opened.pk != closing.pk and seat.number in opened.awaited

        pushes = [r for r in receiver.received if r.path == "/push/demo1"]
        assert len(pushes) == 1
        assert pushes[0].headers["content-encoding"] == "aes128gcm"
        assert f"k={key}" in pushes[0].headers["authorization"]
        payload = json.loads(keys.decrypt(pushes[0].body))
        assert match.name in payload["title"]
        assert payload["url"].startswith(settings.SITE_URL) and f"/m/{match.pk}/" in payload["url"]
        assert payload["tag"] == f"match-{match.pk}"

        # 4. the signed JSON delivery for the same phase
        hooks = [r for r in receiver.received if r.path == "/hook/demo1"]
        assert len(hooks) == 1
        got = hooks[0]
        stamp = got.headers["x-phases-timestamp"]
        mac = hmac.new(secret.encode(), stamp.encode() + b"." + got.body, hashlib.sha256)
        assert got.headers["x-phases-signature"] == "sha256=" + mac.hexdigest()
        doc = json.loads(got.body)
        assert doc["event"] == "my_move" and doc["match"]["id"] == match.pk
        assert doc["phase"]["number"] == opened.number

        # 5. the calendar lists that phase's deadline
        url = client.get("/api/calendar/").json()["url"]
        feed = anonymous.get(urlsplit(url).path)  # no login: the secret URL is the key
        cal = Calendar.from_ical(feed.content)
        ends = {e.decoded("dtend") for e in cal.walk("VEVENT")}
        assert opened.deadline_at.replace(microsecond=0) in ends
    finally:
        receiver.close()

    # 6. production refuses a webhook (or push endpoint) to a private address
    code = ("import django; django.setup(); from reach import safehttp\n"
            "from django.conf import settings; assert settings.NOTIFY_ALLOW_LOOPBACK is False\n"
            "for url in ['https://10.0.0.7/hook', 'https://127.0.0.1/hook', "
            "'https://169.254.169.254/latest', 'http://127.0.0.1:8000/x']:\n"
            "    try: safehttp.check(url)\n"
            "    except safehttp.Refused: continue\n"
            "    raise SystemExit('not refused: ' + url)\n"
            "print('refused')")
    env = {k: v for k, v in os.environ.items() if k not in {"PBW_EMBEDDED", "VAR_DIR"}}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.production",
                "SECRET_KEY": "p" * 50, "DATABASE_URL": "sqlite:///:memory:",
                "EMAIL_URL": "smtp://mail.example.org:25", "ALLOWED_HOSTS": "play.example.org",
                "NOTIFY_ALLOW_LOOPBACK": "true"})  # ignored in production
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "refused" in proc.stdout, proc.stderr


def _which(name: str) -> bool:
    import shutil

    return shutil.which(name) is not None
