"""Accounts: sign up, log in/out, password reset by email (Django's views, our templates),
the profile preferences, the API token, and the unsubscribe landing (GET confirms, POST
applies without a session or CSRF token, as RFC 8058 one-click requires)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, Profile
from games.lib.unsubscribe import make_token
from tests.games.views.conftest import PASSWORD
from tests.games.views.test_match_page import page_text

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "another-long-passphrase-42"


def _link(message) -> str:
    return re.search(r"http://testserver(/accounts/verify/\S+)", message.body).group(1)


def test_signup_sends_a_link_that_confirms_and_logs_in(anon_client):
    resp = anon_client.post(reverse("accounts:signup"), {
        "username": "carol", "email": "carol@example.com",
        "password1": PASSWORD, "password2": PASSWORD})
    assert resp.status_code == 302 and resp["Location"] == reverse("accounts:signup-done")
    user = get_user_model().objects.get(username="carol")
    assert user.email == "carol@example.com"
    assert Profile.objects.get(user=user).email_verified_at is None
    assert "carol" not in page_text(anon_client.get(reverse("games:lobby")))
    [message] = mail.outbox
    assert message.to == ["carol@example.com"]
    resp = anon_client.get(_link(message))
    assert resp.status_code == 302 and resp["Location"] == reverse("games:lobby")
    assert Profile.objects.get(user=user).email_verified_at is not None
    assert "carol" in page_text(anon_client.get(reverse("games:lobby")))
    # used once: the same link no longer works
    assert Client().get(_link(message)).status_code == 400


def test_signup_honours_a_safe_next_only(anon_client):
    data = {"username": "dave", "email": "dave@example.com", "password1": PASSWORD,
            "password2": PASSWORD, "next": "https://evil.example/"}
    anon_client.post(reverse("accounts:signup"), data)
    assert anon_client.get(_link(mail.outbox[-1]))["Location"] == reverse("games:lobby")
    c = Client()
    data.update(username="erin", email="erin@example.com", next="/join/abc/")
    c.post(reverse("accounts:signup"), data)
    assert c.get(_link(mail.outbox[-1]))["Location"] == "/join/abc/"


@pytest.mark.parametrize("over,message", [
    ({"email": ""}, "This field is required"),
    ({"email": "not-an-email"}, "valid email"),
    ({"password2": "different-passphrase"}, "didn’t match"),
    ({"password1": "123", "password2": "123"}, "too short"),
])
def test_signup_errors_next_to_fields(anon_client, player, over, message):
    data = {"username": "carol", "email": "carol@example.com",
            "password1": PASSWORD, "password2": PASSWORD, **over}
    resp = anon_client.post(reverse("accounts:signup"), data)
    assert resp.status_code == 400
    assert message in resp.content.decode()
    assert not get_user_model().objects.filter(username="carol").exists()


def test_login_and_logout(anon_client, player):
    resp = anon_client.post(reverse("accounts:login"), {"username": "alice", "password": "wrong"})
    assert resp.status_code == 200 and "correct username and password" in page_text(resp)
    resp = anon_client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert resp.status_code == 302
    assert anon_client.get(reverse("accounts:profile")).status_code == 200
    resp = anon_client.post(reverse("accounts:logout"))
    assert resp.status_code == 302
    assert anon_client.get(reverse("accounts:profile")).status_code == 302


def test_password_reset_by_email_round_trip(anon_client, player):
    resp = anon_client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert resp.status_code == 302
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", body).group(1)
    resp = anon_client.get(link, follow=True)
    assert resp.status_code == 200 and "Choose a new password" in page_text(resp)
    form_url = resp.redirect_chain[-1][0] if resp.redirect_chain else link
    resp = anon_client.post(form_url, {"new_password1": NEW_PASSWORD,
                                       "new_password2": NEW_PASSWORD})
    assert resp.status_code == 302 and resp["Location"] == reverse("accounts:password_reset_complete")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_password_reset_for_unknown_email_sends_nothing(anon_client):
    resp = anon_client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert resp.status_code == 302 and mail.outbox == []


def test_profile_saves_preferences(player, player_client):
    resp = player_client.post(reverse("accounts:profile"), {
        "timezone": "Asia/Tokyo", "language": "it", "email_mode": "digest",
        "reminder_hours": 6, "email_match_events": ""})
    assert resp.status_code == 302
    prof = Profile.objects.get(user=player)
    assert (prof.timezone, prof.language, prof.email_mode, prof.reminder_hours,
            prof.email_match_events) == ("Asia/Tokyo", "it", "digest", 6, False)


@pytest.mark.parametrize("over,field", [
    ({"timezone": "Nowhere/Atlantis"}, "timezone"),
    ({"language": "xx"}, "language"),
    ({"email_mode": "hourly"}, "email_mode"),
    ({"reminder_hours": -1}, "reminder_hours"),
    ({"reminder_hours": "soon"}, "reminder_hours"),
    ({"reminder_hours": 1000}, "reminder_hours"),
])
def test_profile_refuses_bad_values(player, player_client, over, field):
    data = {"timezone": "Asia/Tokyo", "language": "en", "email_mode": "per_phase",
            "reminder_hours": 3, "email_match_events": "on", **over}
    resp = player_client.post(reverse("accounts:profile"), data)
    assert resp.status_code == 400
    assert re.search(r'class="field has-error', resp.content.decode())
    assert Profile.objects.get(user=player).timezone == "UTC"


def test_api_token_shown_once_then_revoked(player, player_client):
    """(tests/security/test_api_tokens.py has the rest: hashing, scopes, expiry.)"""
    assert "You have no token yet" in page_text(player_client.get(reverse("accounts:profile")))
    made = player_client.post(reverse("accounts:api-token-create"),
                              {"name": "bot", "scope": "play", "days": 30})
    key = re.search(r'id="api-key"[^>]*value="([^"]+)"', made.content.decode()).group(1)
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    assert key not in player_client.get(reverse("accounts:profile")).content.decode()
    assert Client(HTTP_AUTHORIZATION=f"Token {key}").get(
        reverse("games:api-matches")).status_code == 200
    token = ApiToken.objects.get(user=player)
    player_client.post(reverse("accounts:api-token-revoke", args=[token.pk]))
    assert Client(HTTP_AUTHORIZATION=f"Token {key}").get(
        reverse("games:api-matches")).status_code == 401


def test_unsubscribe_get_confirms_post_applies_without_session(player):
    token = make_token(player, "new_phase")
    url = reverse("games:unsubscribe", args=[token])
    c = Client(enforce_csrf_checks=True)
    resp = c.get(url)
    assert resp.status_code == 200 and "Yes, unsubscribe me" in page_text(resp)
    assert Profile.objects.get(user=player).email_mode == "my_move"  # GET changes nothing
    resp = c.post(url, {"List-Unsubscribe": "One-Click"})
    assert resp.status_code == 200 and "no longer get" in page_text(resp)
    assert Profile.objects.get(user=player).email_mode == "off"


def test_unsubscribe_reminders_only(player):
    url = reverse("games:unsubscribe", args=[make_token(player, "reminder")])
    Client().post(url)
    prof = Profile.objects.get(user=player)
    assert prof.reminder_hours == 0 and prof.email_mode == "my_move"


@pytest.mark.parametrize("token", ["garbage", "eyJ1IjoxfQ:bad:sig"])
def test_unsubscribe_bad_token_is_400(player, token):
    url = reverse("games:unsubscribe", args=[token])
    for method in ("get", "post"):
        resp = getattr(Client(), method)(url)
        assert resp.status_code == 400 and "not valid" in page_text(resp)
    assert Profile.objects.get(user=player).email_mode == "my_move"
