"""Issue 28, problem 1: per-address throttles counted any ``X-Forwarded-For`` a client sent.
The client's address now comes from ``X-Forwarded-For`` only on a connection from a
configured proxy (``TRUSTED_PROXIES``, empty by default); otherwise it is the socket's."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine
from django.core import checks
from django.test import Client
from django.urls import reverse

from config.proxies import ForwardedHeadersMiddleware, check_proxies, client_ip

pytestmark = pytest.mark.django_db
NOON = datetime(2026, 7, 1, 12, 0, tzinfo=timezone.utc)


def test_without_trusted_proxies_the_socket_address_counts(settings, rf):
    settings.TRUSTED_PROXIES = []
    request = rf.get("/", HTTP_X_FORWARDED_FOR="1.2.3.4", REMOTE_ADDR="10.0.0.1")
    assert client_ip(request) == "10.0.0.1"


def test_from_a_trusted_proxy_the_right_most_untrusted_hop_counts(settings, rf):
    settings.TRUSTED_PROXIES = ["172.30.0.10", "10.1.0.0/16"]
    request = rf.get("/", REMOTE_ADDR="172.30.0.10",
                     HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9, 10.1.2.3")
    # 6.6.6.6 is whatever the client claimed; 10.1.2.3 is a trusted hop of ours
    assert client_ip(request) == "203.0.113.9"
    # the same header from anybody else is ignored
    request.META["REMOTE_ADDR"] = "198.51.100.7"
    assert client_ip(request) == "198.51.100.7"
    # junk in the header stops the walk at the proxy's own address
    junk = rf.get("/", REMOTE_ADDR="172.30.0.10", HTTP_X_FORWARDED_FOR="nonsense")
    assert client_ip(junk) == "172.30.0.10"
    v6 = rf.get("/", REMOTE_ADDR="172.30.0.10", HTTP_X_FORWARDED_FOR="[2001:db8::1]:4711")
    assert client_ip(v6) == "2001:db8::1"


def test_forwarded_headers_are_dropped_unless_a_trusted_proxy_sent_them(settings, rf):
    settings.TRUSTED_PROXIES = ["172.30.0.10"]
    seen = {}
    middleware = ForwardedHeadersMiddleware(lambda r: seen.update(r.META) or None)
    middleware(rf.get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="1.2.3.4",
                      HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_HOST="evil.example"))
    assert not {"HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO",
                "HTTP_X_FORWARDED_HOST"} & set(seen)
    seen.clear()
    middleware(rf.get("/", REMOTE_ADDR="172.30.0.10", HTTP_X_FORWARDED_PROTO="https"))
    assert seen["HTTP_X_FORWARDED_PROTO"] == "https"


def test_invented_forwarded_for_values_do_not_escape_the_login_throttle(settings, db):
    """The attack of the issue: 14 failed logins with 14 invented XFF values, gunicorn
    reached directly (production settings: BEHIND_PROXY on)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = []
    c = Client(REMOTE_ADDR="198.51.100.20")
    statuses = [c.post(reverse("accounts:login"), {"username": f"guess{i}", "password": "x"},
                       HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code for i in range(14)]
    assert statuses[:9] == [200] * 9 and statuses[-1] == 429


def test_behind_the_proxy_each_real_client_has_its_own_count(settings, db):
    settings.TRUSTED_PROXIES = ["172.30.0.10"]
    proxy = Client(REMOTE_ADDR="172.30.0.10")
    for i in range(12):
        r = proxy.post(reverse("accounts:login"), {"username": f"guess{i}", "password": "x"},
                       HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
        assert r.status_code == 200  # twelve clients, one failure each: nobody locked out
    # and one client behind the proxy is locked out on its own
    statuses = [proxy.post(reverse("accounts:login"), {"username": f"other{i}", "password": "x"},
                           HTTP_X_FORWARDED_FOR="203.0.113.99").status_code for i in range(12)]
    assert statuses[-1] == 429


def test_invented_forwarded_for_values_do_not_escape_the_bad_token_throttle(settings, db):
    settings.TRUSTED_PROXIES = []
    c = Client(REMOTE_ADDR="198.51.100.21")
    url = reverse("games:api-matches")
    with time_machine.travel(NOON, tick=False):
        statuses = [c.get(url, HTTP_AUTHORIZATION=f"Token guess-{i}",
                          HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code for i in range(25)]
    assert statuses[20:] == [429] * 5


def test_the_system_check_warns_behind_a_proxy_without_trusted_proxies(settings):
    settings.BEHIND_PROXY = True
    settings.TRUSTED_PROXIES = []
    assert [m.id for m in check_proxies()] == ["pbw.W010"]
    settings.TRUSTED_PROXIES = ["172.30.0.10"]
    assert check_proxies() == []
    settings.TRUSTED_PROXIES = ["not-an-address"]
    assert [m.id for m in check_proxies()] == ["pbw.E010"]
    assert all(isinstance(m, checks.CheckMessage) for m in check_proxies())
