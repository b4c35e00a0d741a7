"""Unsubscribe tokens are opaque (issue 14): random and stored, nothing readable in them,
nothing to forge with a known key; one click (a POST without session or CSRF) still works
and a link keeps working for later emails."""

from __future__ import annotations

import base64

import pytest
from django.core import signing
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import Profile, UnsubscribeToken
from games.lib.unsubscribe import BadToken, make_token, read_token, unsubscribe_url

pytestmark = pytest.mark.django_db


def test_token_is_random_stored_and_says_nothing(player, player2):
    token = make_token(player, "new_phase")
    assert make_token(player, "your_turn") == token  # same category, same link
    assert make_token(player, "reminder") != token
    assert make_token(player2, "new_phase") != token
    assert len(token) >= 32
    decoded = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert b'"u"' not in decoded  # no signed payload naming the user any more
    row = UnsubscribeToken.objects.get(token=token)
    assert (row.user, row.category) == (player, "phase")
    assert read_token(token).user_id == player.pk
    assert unsubscribe_url(player, "digest").endswith(f"/accounts/unsubscribe/{token}/")
    UnsubscribeToken.objects.filter(token=token).delete()
    with pytest.raises(BadToken):  # the stored row is the only way back to the user
        read_token(token)


def test_one_click_post_without_session_applies(player):
    url = reverse("games:unsubscribe", args=[make_token(player, "new_phase")])
    c = Client(enforce_csrf_checks=True)
    assert c.get(url).status_code == 200
    assert Profile.objects.get(user=player).email_mode != "off"
    assert c.post(url).status_code == 200
    assert Profile.objects.get(user=player).email_mode == "off"
    assert c.post(url).status_code == 200  # idempotent


@pytest.mark.parametrize("token", ["x", "A" * 32, "a" * 5000])
def test_unknown_tokens_are_refused(token, player):
    with pytest.raises(BadToken):
        read_token(token)
    resp = Client().post(reverse("games:unsubscribe", args=[token]))
    assert resp.status_code == 400


def test_a_link_forged_with_the_old_public_key_is_refused(player):
    with override_settings(SECRET_KEY="dev-only-insecure-key-change-me-" + "x" * 32):
        forged = signing.dumps({"u": player.pk, "c": "phase"}, salt="games.unsubscribe",
                               compress=True)
    with pytest.raises(BadToken):
        read_token(forged)
    assert Client().post(reverse("games:unsubscribe", args=[forged])).status_code == 400
    assert Profile.objects.get(user=player).email_mode != "off"
