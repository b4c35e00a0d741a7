"""Throttled guessing (issue 14): logins on the site and /admin/login/ (django-axes, per IP
and per account, a cool-off that ends), password-reset emails (at most 3 per address per
hour, the same answer either way), signups and bad API tokens per IP; 429 + Retry-After."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from tests.games.views.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# the middle of a ratelimit window would not matter for most counts, but keep every
# request of a test inside one window: the clock stands still
NOON = datetime(2026, 7, 1, 12, 0, tzinfo=timezone.utc)


def _login(c: Client, username: str, password: str, url: str | None = None):
    return c.post(url or reverse("accounts:login"), {"username": username, "password": password})


def test_forty_wrong_passwords_are_throttled_and_the_right_one_refused_for_a_while(player):
    c = Client()
    statuses = [_login(c, "alice", f"wrong-{i}").status_code for i in range(40)]
    assert statuses[0] == 200 and 429 in statuses
    assert statuses.count(429) >= 30
    locked = _login(c, "alice", PASSWORD)
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert "_auth_user_id" not in c.session
    # a lockout is not for good: after the cool-off the right password works
    with time_machine.travel(datetime.now(timezone.utc) + timedelta(minutes=16)):
        ok = _login(c, "alice", PASSWORD)
        assert ok.status_code == 302 and c.session["_auth_user_id"] == str(player.pk)


def test_per_account_from_many_addresses(player):
    """A distributed guesser (one try per IP) still locks the account for the cool-off."""
    statuses = []
    for i in range(15):
        c = Client(REMOTE_ADDR=f"10.0.0.{i + 1}")
        statuses.append(_login(c, "alice", f"wrong-{i}").status_code)
    assert statuses[-1] == 429
    assert _login(Client(REMOTE_ADDR="10.9.9.9"), "alice", PASSWORD).status_code == 429


def test_per_ip_across_accounts(player):
    c = Client(REMOTE_ADDR="10.1.1.1")
    statuses = [_login(c, f"user{i}", "x").status_code for i in range(15)]
    assert statuses[-1] == 429
    # the same person from another address is not affected
    assert _login(Client(REMOTE_ADDR="10.2.2.2"), "alice", PASSWORD).status_code == 302


def test_unknown_and_known_names_are_throttled_alike(player):
    """The lockout says nothing about whether the account exists."""
    a, b = Client(REMOTE_ADDR="10.3.3.3"), Client(REMOTE_ADDR="10.4.4.4")
    known = [_login(a, "alice", "x").status_code for _ in range(12)]
    unknown = [_login(b, "nobody-here", "x").status_code for _ in range(12)]
    assert known == unknown


def test_admin_login_is_throttled(staff):
    c = Client()
    url = reverse("admin:login")
    statuses = [_login(c, "director", f"wrong-{i}", url).status_code for i in range(40)]
    assert 429 in statuses
    assert _login(c, "director", PASSWORD, url).status_code == 429


def test_ten_reset_requests_send_at_most_three_emails(player):
    url = reverse("accounts:password_reset")
    with time_machine.travel(NOON, tick=False):
        answers = [Client(REMOTE_ADDR=f"10.5.0.{i}").post(url, {"email": "alice@example.com"})
                   for i in range(10)]
    assert len(mail.outbox) == 3
    assert {r.status_code for r in answers} == {302}
    assert {r["Location"] for r in answers} == {reverse("accounts:password_reset_done")}


def test_reset_answers_the_same_for_unknown_addresses(player):
    url = reverse("accounts:password_reset")
    known = Client().post(url, {"email": "alice@example.com"})
    unknown = Client().post(url, {"email": "nobody@example.com"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(mail.outbox) == 1


def test_reset_from_one_address_is_429_after_many(player):
    c = Client(REMOTE_ADDR="10.6.6.6")
    url = reverse("accounts:password_reset")
    with time_machine.travel(NOON, tick=False):
        statuses = [c.post(url, {"email": f"x{i}@example.com"}).status_code for i in range(25)]
    assert statuses[:20] == [302] * 20 and statuses[-1] == 429


def test_signups_per_ip_are_throttled(db):
    c = Client(REMOTE_ADDR="10.7.7.7")
    url = reverse("accounts:signup")
    statuses = []
    with time_machine.travel(NOON, tick=False):
        for i in range(12):
            c.logout()
            statuses.append(c.post(url, {"username": f"new{i}", "email": f"new{i}@example.com",
                                         "password1": "a-long-pass-phrase-42",
                                         "password2": "a-long-pass-phrase-42"}).status_code)
        assert statuses[-1] == 429
        assert int(c.post(url, {}).get("Retry-After", 0)) > 0


def test_bad_api_tokens_get_429_with_retry_after(player):
    good = ApiToken.objects.create(user=player)
    c = Client(REMOTE_ADDR="10.8.8.8")
    url = reverse("games:api-matches")
    with time_machine.travel(NOON, tick=False):
        statuses = [c.get(url, HTTP_AUTHORIZATION=f"Token guess-{i}").status_code
                    for i in range(25)]
        assert statuses[:20] == [401] * 20 and statuses[20] == 429
        refused = c.get(url, HTTP_AUTHORIZATION=f"Token {good.key}")
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert refused.json()["error"]["code"] == "THROTTLED"
        # another address is not affected
        other = Client(REMOTE_ADDR="10.8.8.9").get(url, HTTP_AUTHORIZATION=f"Token {good.key}")
        assert other.status_code == 200
