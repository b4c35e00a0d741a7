"""Issue 28, problem 6: a deleted session stayed valid while Redis cached it, and there was
no "log out everywhere". The sessions page lists and ends sessions; ending deletes the
cached copy first and fails closed when the cache is down."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts import sessions
from accounts.models import UserSession
from tests.games.views.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db
URL = "/accounts/sessions/"


@pytest.fixture(autouse=True)
def _fresh():
    sessions.forget()
    yield
    sessions.forget()


def _login(username: str, agent: str) -> Client:
    c = Client(HTTP_USER_AGENT=agent)
    assert c.post(reverse("accounts:login"), {"username": username, "password": PASSWORD}
                  ).status_code == 302
    return c


def _logged_in(c: Client) -> bool:
    return c.get(reverse("accounts:profile")).status_code == 200


class DownCache:
    """Every call fails, as Redis stopped."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("redis down")
        return fail


def test_the_page_lists_my_sessions_and_ends_one(db):
    make_user("alice")
    phone, laptop = _login("alice", "Phone/1.0"), _login("alice", "Laptop/2.0")
    page = laptop.get(URL).content.decode()
    assert "Phone/1.0" in page and "This device" in page
    phone_row = UserSession.objects.get(user_agent="Phone/1.0")
    assert phone_row.session_key not in page  # the page never shows a session's key
    resp = laptop.post(URL, {"end": phone_row.pk})
    assert resp.status_code == 302
    assert not _logged_in(phone) and _logged_in(laptop)
    assert "Phone/1.0" not in laptop.get(URL).content.decode()


def test_log_out_everywhere_else_and_everywhere(db):
    make_user("alice")
    a, b, c = (_login("alice", f"Device/{i}") for i in range(3))
    a.post(URL, {"end": "others"})
    assert _logged_in(a) and not _logged_in(b) and not _logged_in(c)
    a.post(URL, {"end": "all"})
    assert not _logged_in(a)


def test_a_player_cannot_end_another_players_session(db):
    make_user("alice"), make_user("bob")
    alice, bob = _login("alice", "A"), _login("bob", "B")
    bobs = UserSession.objects.get(user__username="bob")
    assert alice.post(URL, {"end": bobs.pk}).status_code == 404
    assert alice.post(URL, {"end": "x" * 40}).status_code == 404
    assert _logged_in(bob)


def test_an_ended_session_does_not_come_back_with_the_cache(db, monkeypatch, settings):
    """The attack: the session is ended while Redis is down; Redis comes back still
    holding the session. It must stay ended (fail closed)."""
    make_user("alice")
    laptop, stolen = _login("alice", "Laptop"), _login("alice", "Stolen")
    assert _logged_in(stolen)  # its data is in the cache now
    key = stolen.cookies["sessionid"].value
    store = caches["default"]
    assert store.get("django.contrib.sessions.cached_db" + key) is not None
    row = UserSession.objects.get(session_key=key)
    monkeypatch.setattr(sessions, "caches", {"default": DownCache()})
    assert laptop.post(URL, {"end": row.pk}).status_code == 302  # works with the cache down
    monkeypatch.undo()
    assert not Session.objects.filter(session_key=key).exists()
    assert store.get("django.contrib.sessions.cached_db" + key) is not None  # still cached
    # another process: re-reads the list of such ends (SESSION_END_CHECK_SECONDS)
    sessions.forget()
    settings.SESSION_END_CHECK_SECONDS = 0
    assert not _logged_in(stolen)
    # the sweep deletes the cached copy; the key stays ended
    assert sessions.sessions_clear_ended() == 1
    assert store.get("django.contrib.sessions.cached_db" + key) is None
    assert UserSession.objects.get(pk=row.pk).cache_cleared
    assert not _logged_in(stolen) and _logged_in(laptop)


def test_logout_deletes_the_cached_copy_first(db, monkeypatch, settings):
    make_user("alice")
    c = _login("alice", "Laptop")
    key = c.cookies["sessionid"].value
    thief = Client()
    thief.cookies["sessionid"] = key
    assert _logged_in(thief)
    monkeypatch.setattr(sessions, "caches", {"default": DownCache()})
    c.post(reverse("accounts:logout"))
    monkeypatch.undo()
    settings.SESSION_END_CHECK_SECONDS = 0
    assert not _logged_in(thief)


def test_a_password_change_keeps_the_row_on_the_new_key(db):
    make_user("alice")
    c = _login("alice", "Laptop")
    old = c.cookies["sessionid"].value
    resp = c.post(reverse("accounts:password_change"),
                  {"old_password": PASSWORD, "new_password1": "a new long passphrase 7",
                   "new_password2": "a new long passphrase 7"})
    assert resp.status_code == 302
    new = c.cookies["sessionid"].value
    assert new != old and UserSession.objects.filter(session_key=new, ended_at=None).exists()
    assert "This device" in c.get(URL).content.decode()


def test_the_sessions_page_fits_a_phone(db):
    make_user("alice")
    page = _login("alice", "Phone").get(URL).content.decode()
    assert 'name="viewport"' in page and 'id="end-others"' in page and "<table" not in page
