"""Accounts without enumeration (issue 14): sign up answers the same whether or not the
name or the address exists (the email tells the owner); email verification gates joining
matches when ACCOUNT_EMAIL_VERIFICATION is on; login and reset do not tell either."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from games.exceptions import ApplicationError
from games.services.matches import match_join
from tests.games.views.conftest import PASSWORD, new_match

pytestmark = pytest.mark.django_db


def _signup(username: str, email: str):
    return Client().post(reverse("accounts:signup"), {
        "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD})


def _shape(resp) -> tuple:
    followed = Client().get(resp["Location"]) if resp.status_code == 302 else resp
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"', "",
                  followed.content.decode())
    return resp.status_code, resp.get("Location"), followed.status_code, body


def test_signup_says_nothing_about_existing_names_or_addresses(player):
    fresh = _signup("carol", "carol@example.com")
    same_email = _signup("carol2", "ALICE@example.com")   # alice's address
    same_name = _signup("Alice", "other@example.com")     # alice's name, other case
    both = _signup("alice", "alice@example.com")
    shapes = {_shape(r) for r in (fresh, same_email, same_name, both)}
    assert len(shapes) == 1, shapes
    status, location, _, body = shapes.pop()
    assert (status, location) == (302, reverse("accounts:signup-done"))
    assert "Check your email" in body
    for word in ("already", "exists", "taken"):
        assert word not in body
    # only the fresh one made an account; the owners are told by email
    users = get_user_model().objects
    assert users.filter(username="carol").exists()
    assert not users.filter(username__in=["carol2", "Alice"]).exists()
    assert users.filter(username__iexact="alice").count() == 1
    by_to = {m.to[0].lower(): m for m in mail.outbox}
    assert "/accounts/verify/" in by_to["carol@example.com"].body
    assert "already has an account" in by_to["alice@example.com"].body
    assert "alice" in by_to["alice@example.com"].body
    assert "name is taken" in by_to["other@example.com"].body


def test_login_and_reset_say_nothing_either(player):
    known = Client().post(reverse("accounts:login"), {"username": "alice", "password": "x"})
    unknown = Client().post(reverse("accounts:login"), {"username": "nobody", "password": "x"})
    assert known.status_code == unknown.status_code == 200
    strip = lambda r: re.sub(r'value="[^"]*"|"X-CSRFToken": "[^"]+"', "",  # noqa: E731
                             r.content.decode())
    assert strip(known).replace("alice", "nobody") == strip(unknown)


def test_verification_gates_joining_when_on(settings, player2):
    settings.ACCOUNT_EMAIL_VERIFICATION = True
    _signup("carol", "carol@example.com")
    carol = get_user_model().objects.get(username="carol")
    match = new_match(creator=player2, players=[])
    with pytest.raises(ApplicationError) as exc:
        match_join(match=match, user=carol)
    assert exc.value.code == "EMAIL_UNVERIFIED"
    page = Client()
    page.force_login(carol)
    resp = page.post(reverse("games:match-join", args=[match.pk]), follow=True)
    assert not match.seats.filter(user=carol).exists()
    assert "Confirm your email address first" in resp.content.decode()
    assert "not confirmed" in page.get(reverse("accounts:profile")).content.decode()
    # the verification email (other emails may have gone out after it)
    bodies = [m.body for m in mail.outbox if m.to == ["carol@example.com"]]
    found = [re.search(r"https?://[^/\s]+(/accounts/verify/\S+)", b) for b in bodies]
    link = next(m for m in found if m).group(1)
    assert page.get(link).status_code == 302
    match_join(match=match, user=carol)
    assert match.seats.filter(user=carol).exists()


def test_verification_off_lets_unverified_players_join(settings, player2):
    settings.ACCOUNT_EMAIL_VERIFICATION = False
    _signup("carol", "carol@example.com")
    carol = get_user_model().objects.get(username="carol")
    assert Profile.objects.get(user=carol).email_verified_at is None
    match = new_match(creator=player2, players=[])
    match_join(match=match, user=carol)


def test_resend_link_is_throttled(settings, player, player_client):
    for _ in range(3):
        assert player_client.post(reverse("accounts:verify-email-resend")).status_code == 302
    assert player_client.post(reverse("accounts:verify-email-resend")).status_code == 429
    assert len(mail.outbox) == 3


@pytest.mark.parametrize("uid,token", [("xx", "yy"), ("MQ", "bad-token"), ("!!", "-")])
def test_bad_verification_links_are_400(uid, token, player):
    assert Client().get(reverse("accounts:verify-email", args=[uid, token])).status_code == 400


def test_production_turns_verification_on():
    text = open("config/settings/production.py").read()
    assert 'os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "true")' in text
