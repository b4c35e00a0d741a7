"""Issue 28's "Done when", on the demo data of ``make run`` (``seed_demo``, the run
command's own SITE_URL and allowed hosts): 12 failed logins for different names, each
with a different X-Forwarded-For, end in 429; ``/players/u/%00/``,
``/accounts/unsubscribe/%00/`` and an away period ending 9999-12-31 answer 4xx; the
password-reset email's link uses the served address whatever Host the request names
(among the allowed hosts). The demo logins still work under the new password policy."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
SERVED = "127.0.0.1:8106"


@pytest.fixture
def demo_site(settings):
    """The demo as ``manage.py run --addr 127.0.0.1:8106`` serves it: the base settings'
    allowed hosts and proxies, SITE_URL following the served address."""
    from games.management.commands.run import seed_demo, site_url_follow

    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]  # the base default
    settings.TRUSTED_PROXIES = []
    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    site_url_follow(SERVED)
    return Client(REMOTE_ADDR="127.0.0.1")


def _login(c: Client, username: str, password: str, **headers):
    return c.post(reverse("accounts:login"), {"username": username, "password": password},
                  **headers)


def test_twelve_failed_logins_with_invented_forwarded_for_end_in_429(demo_site):
    statuses = [_login(demo_site, f"nobody{i}", "wrong", HTTP_HOST="127.0.0.1",
                       HTTP_X_FORWARDED_FOR=f"198.51.100.{i + 1}").status_code
                for i in range(12)]
    assert statuses[-1] == 429, statuses


def test_nul_paths_and_an_away_period_ending_9999_12_31_answer_4xx(demo_site):
    for url in ("/players/u/%00/", "/accounts/unsubscribe/%00/"):
        status = demo_site.get(url, HTTP_HOST="127.0.0.1").status_code
        assert 400 <= status < 500, (url, status)
    player = Client(REMOTE_ADDR="127.0.0.2")
    assert _login(player, "demo1", "demo", HTTP_HOST="127.0.0.1").status_code == 302
    resp = player.post(reverse("players:away"), {"first": "2026-12-20", "last": "9999-12-31"},
                       HTTP_HOST="127.0.0.1")
    assert 400 <= resp.status_code < 500


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "localhost:8106"])
def test_the_reset_link_uses_the_served_address_whatever_the_host(demo_site, host):
    resp = Client(REMOTE_ADDR="127.0.0.3").post(
        reverse("accounts:password_reset"), {"email": "demo1@localhost"}, HTTP_HOST=host)
    assert resp.status_code == 302
    body = mail.outbox[-1].body
    links = re.findall(r"https?://\S+/accounts/password/reset/\S+", body)
    assert links and all(link.startswith(f"http://{SERVED}/") for link in links), links
    assert f"http://{SERVED}" in body


def test_the_demo_logins_still_work(demo_site):
    for username, password in (("admin", "admin"), ("demo1", "demo"), ("demo3", "demo")):
        c = Client(REMOTE_ADDR="127.0.0.4")
        assert _login(c, username, password, HTTP_HOST="127.0.0.1").status_code == 302, username
