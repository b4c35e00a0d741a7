"""Directors (issue 14): a TOTP second factor via django-otp, required for staff with
OTP_REQUIRED_FOR_STAFF (on in production, off in the embedded demo), and shorter sessions
for staff."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.games.views.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db


def _code(device: TOTPDevice, offset: int = 0) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
    totp.time = time.time() + offset
    return f"{totp.token():06d}"


def test_staff_must_enrol_and_verify_when_required(settings, staff, player):
    settings.OTP_REQUIRED_FOR_STAFF = True
    c = client_for(staff)
    for url in ("/admin/", "/", reverse("accounts:profile")):
        resp = c.get(url)
        assert resp.status_code == 302 and resp["Location"].startswith("/accounts/otp/"), url
    assert c.get("/api/matches/").json()["error"]["code"] == "OTP_REQUIRED"
    page = c.get(reverse("accounts:otp"))
    assert page.status_code == 200 and "<svg" in page.content.decode()
    secret = re.search(r'id="otp-secret">([A-Z2-7]+)<', page.content.decode()).group(1)
    device = TOTPDevice.objects.get(user=staff)
    assert not device.confirmed and secret
    wrong = c.post(reverse("accounts:otp"), {"code": "000000" if _code(device) != "000000"
                                             else "111111"})
    assert wrong.status_code == 400 and c.get("/admin/").status_code == 302
    device.refresh_from_db()
    device.throttling_failure_count = 0
    device.throttling_failure_timestamp = None
    device.save()
    ok = c.post(reverse("accounts:otp"), {"code": _code(device), "next": "/admin/"})
    assert ok.status_code == 302 and ok["Location"] == "/admin/"
    assert c.get("/admin/").status_code == 200
    device.refresh_from_db()
    assert device.confirmed
    # a new session (a new login) must prove a code again, without a new QR code
    c2 = client_for(staff)
    assert c2.get("/admin/").status_code == 302
    page = c2.get(reverse("accounts:otp")).content.decode()
    assert "<svg" not in page and "otp-secret" not in page
    # players are never asked
    assert client_for(player).get(reverse("accounts:profile")).status_code == 200


def test_optional_in_the_demo(settings, staff):
    settings.OTP_REQUIRED_FOR_STAFF = False
    assert client_for(staff).get("/admin/").status_code == 200


def test_production_requires_it():
    text = open("config/settings/production.py").read()
    assert 'os.environ.setdefault("OTP_REQUIRED_FOR_STAFF", "true")' in text


def test_staff_sessions_are_shorter(settings, staff, player):
    settings.STAFF_SESSION_SECONDS = 3600
    director, alice = Client(), Client()
    assert director.post(reverse("accounts:login"),
                         {"username": "director", "password": PASSWORD}).status_code == 302
    assert alice.post(reverse("accounts:login"),
                      {"username": "alice", "password": PASSWORD}).status_code == 302
    assert director.session.get_expiry_age() == 3600
    assert alice.session.get_expiry_age() == settings.SESSION_COOKIE_AGE > 3600


def test_the_admin_never_shows_a_devices_secret(settings, staff):
    settings.OTP_REQUIRED_FOR_STAFF = False
    c = client_for(staff)  # logged in before the device existed: no code asked
    device = TOTPDevice.objects.create(user=staff, name="phone", confirmed=True)
    for view in ("config", "qrcode"):
        assert c.get(f"/admin/otp_totp/totpdevice/{device.pk}/{view}/").status_code == 403
        assert c.get(f"/admin/otp_totp/totpdevice/99999/{view}/").status_code == 403
