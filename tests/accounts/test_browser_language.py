"""A player who never chose a language reads the pages in their browser's (Accept-Language),
and what reaches them outside a page (emails, push) in the one their browser asked for at
the last login; a chosen language wins everywhere."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _login(user, lang: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    resp = client.post(reverse("accounts:login"),
                       {"username": user.username, "password": "pw-" + user.username})
    assert resp.status_code == 302
    return client


def test_a_new_player_has_no_language_chosen():
    user = make_user()
    assert user.profile.language == ""
    assert user.profile.reading_language() == "en"  # the site's, before any login


def test_pages_follow_the_browser_until_a_language_is_chosen():
    user = make_user()
    ja = _login(user, "ja")
    page = ja.get(reverse("accounts:profile"))
    assert '<html lang="ja"' in page.content.decode()
    es = _login(user, "es")  # the same player on another device
    assert '<html lang="es"' in es.get(reverse("accounts:profile")).content.decode()
    Profile.objects.filter(user=user).update(language="it")
    from django.core.cache import cache

    cache.clear()  # the middleware's cached preferences (a form save drops them too)
    assert '<html lang="it"' in ja.get(reverse("accounts:profile")).content.decode()


def test_emails_use_the_browser_language_of_the_last_login():
    user = make_user()
    _login(user, "ja")
    profile = Profile.objects.get(user=user)
    assert profile.browser_language == "ja" and profile.reading_language() == "ja"
    _login(user, "es;q=1.0, en;q=0.5")
    profile.refresh_from_db()
    assert profile.reading_language() == "es"
    profile.language = "it"
    assert profile.reading_language() == "it"  # a chosen language wins


def test_the_profile_form_offers_the_browsers_language():
    user = make_user()
    client = _login(user, "en")
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "My browser&#x27;s language" in html or "My browser's language" in html
