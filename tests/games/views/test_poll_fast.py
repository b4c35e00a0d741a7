"""The htmx poll's 204 "nothing changed" in one query (no session, user or profile row),
only for whoever may see the match; sessions survive a cache outage; lists never read a
match's ``state`` or ``config``; diary sentences are described once and then cached."""

from __future__ import annotations

import html
import re

import pytest
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from games import registry
from games.services.seats import seat_checkin
from tests.games.views.conftest import client_for, make_user, new_match, open_phase, seat_of

pytestmark = pytest.mark.django_db


def _poll_url(client, match) -> str:
    page = client.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    return html.unescape(re.search(r'id="poller" hx-get="([^"]+)"', page).group(1))


def test_the_204_poll_costs_one_query(player, player2, django_assert_num_queries):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    assert client.get(url).status_code == 204  # the session is in the cache from now on
    with django_assert_num_queries(1):
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 204


def test_a_check_in_of_another_seat_changes_the_poll(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    seat_checkin(match=match, seat=seat_of(match, player2), phase_id=open_phase(match).pk)
    answer = client.get(url, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'id="checkin-count"' in answer.content.decode()


def test_a_private_match_polled_by_a_stranger_is_404_not_204(player, player2, stranger):
    match = new_match(creator=player, players=[player, player2], start=True, private=True)
    url = _poll_url(client_for(player), match)
    assert client_for(player).get(url).status_code == 204
    assert client_for(stranger).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302  # to the login page


def test_the_staff_poll_goes_the_full_way_and_still_answers_204(player, player2, staff):
    match = new_match(creator=player, players=[player, player2], start=True, private=True)
    client = client_for(staff)
    assert client.get(_poll_url(client, match)).status_code == 204


def test_the_lobby_and_my_matches_never_read_state_or_config(player, player2):
    for i in range(3):
        new_match(creator=player, players=[player, player2], start=True, name=f"m{i}")
    client = client_for(player)
    with CaptureQueriesContext(connection) as ctx:
        resp = client.get(reverse("games:lobby"), {"status": "running"})
    assert resp.status_code == 200 and "m2" in resp.content.decode()
    match_reads = [q["sql"] for q in ctx.captured_queries if "games_match" in q["sql"]]
    assert match_reads
    assert not [q for q in match_reads
                if re.search(r'\."?(state|config)"?\b|games_match"?\.\*', q)], match_reads


def test_pages_and_sessions_work_while_the_cache_is_down(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)  # logged in while the cache works (the login throttle uses it)
    url = _poll_url(client, match)
    down = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens: every call fails
    with override_settings(CACHES=down):
        # the session, the display preferences and the diary's sentences come from the
        # database and the engine (the press panel's unread counts still need the cache)
        assert client.get(url).status_code == 204
        resp = client.get(reverse("games:match-diary", args=[match.pk]), {"turn": 0},
                          headers={"HX-Request": "true"})
        assert resp.status_code == 200 and 'id="diary-t0"' in resp.content.decode()


def test_diary_sentences_are_described_once(player, player2, monkeypatch):
    match = new_match(creator=player, players=[player, player2], start=True)
    from games.services.orders import order_submit

    order_submit(match=match, seat=seat_of(match, player), payload={"guess": 10})
    engine = registry.get_rules(match.game)
    calls = []
    real = engine.describe

    def counting(*args, **kwargs):
        calls.append(args[0].kind)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "describe", counting)
    client = client_for(player)
    url = reverse("games:match-detail", args=[match.pk])
    first = client.get(url).content.decode()
    described = len(calls)
    assert described >= 1
    second = client.get(url).content.decode()
    assert len(calls) == described  # read back from the cache
    diary = lambda page: re.search(r'id="diary".*?</section>\s*</section>|id="diary".*', page, re.S)  # noqa: E731
    assert diary(first) and diary(second)


# --- the shortcut (games.lib.polls, FastPollMiddleware) ----------------------------------

HX = {"HX-Request": "true"}


def _warm(client, url) -> None:
    assert client.get(url, headers=HX).status_code == 204  # the session now in the cache


def test_a_visitors_poll_of_a_public_match_costs_one_query(player, player2,
                                                          django_assert_num_queries):
    match = new_match(creator=player, players=[player, player2], start=True)
    visitor = client_for(None)
    url = _poll_url(visitor, match)
    assert "a=1" in url
    with django_assert_num_queries(1):
        assert visitor.get(url, headers=HX).status_code == 204


def test_a_visitors_poll_of_a_private_match_is_sent_to_log_in(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True, private=True)
    url = _poll_url(client_for(player), match) + "&a=1"
    answer = client_for(None).get(url, headers=HX)
    assert answer.status_code == 200 and answer.content == b""
    assert answer["HX-Redirect"].startswith(reverse("accounts:login"))


def test_a_changed_password_ends_the_polling_session(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    _warm(client, url)
    player.set_password("another-long-passphrase-9")
    player.save()
    answer = client.get(url, headers=HX)
    assert answer.status_code == 200 and answer["HX-Redirect"].startswith(reverse("accounts:login"))


def test_a_deactivated_account_gets_no_204(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    _warm(client, url)
    type(player).objects.filter(pk=player.pk).update(is_active=False)
    answer = client.get(url, headers=HX)
    assert answer.status_code == 200 and answer["HX-Redirect"].startswith(reverse("accounts:login"))


def test_a_player_who_left_a_private_match_no_longer_gets_204(player, player2):
    from django.utils import timezone

    match = new_match(creator=player, players=[player, player2], start=True, private=True)
    client = client_for(player2)
    url = _poll_url(client, match)
    _warm(client, url)
    type(seat_of(match, player2)).objects.filter(pk=seat_of(match, player2).pk).update(
        removed_at=timezone.now())
    assert client.get(url, headers=HX).status_code == 404


def test_the_early_204_carries_the_security_headers_and_marks_presence(player, player2):
    from django.utils import timezone

    from games.lib import presence

    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    _warm(client, url)
    from django.core.cache import cache

    cache.delete(f"onpage:{match.pk}:{player.pk}")
    presence.forget_written()  # the process writes a stamp at most every 15 s
    answer = client.get(url, headers=HX)
    assert answer.status_code == 204
    assert "script-src 'self'" in answer["Content-Security-Policy"]
    assert "camera=()" in answer["Permissions-Policy"]
    assert answer["X-Frame-Options"] == "DENY" and answer["Referrer-Policy"] == "same-origin"
    assert (match.pk, player.pk) in presence.seen_at([(match.pk, player.pk)], now=timezone.now())


def test_another_games_poll_url_does_not_answer_for_this_match(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    for name in ("sanguosha:table-poll", "diceslayer:board"):
        url = reverse(name, args=[match.pk])
        assert client.get(url, {"v": match.version, "s": 0}, headers=HX).status_code == 404


def test_a_bad_host_is_refused_before_the_shortcut(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    _warm(client, url)
    with override_settings(ALLOWED_HOSTS=["testserver"]):
        assert client.get(url, headers=HX, HTTP_HOST="evil.example").status_code == 400
        assert client.get(url, headers=HX).status_code == 204


@pytest.mark.parametrize("junk", ["v=abc", "v=1e9", "v=&s=x", "v=0&c=-1", "v=%00",
                                  "v=99999999999999999999999"])
def test_junk_poll_numbers_are_never_a_500(player, player2, junk):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    answer = client.get(reverse("games:match-poll", args=[match.pk]) + "?" + junk, headers=HX)
    # a NUL is refused before anything reads it (config/badinput.py): a 400 that says so
    assert answer.status_code in ((400,) if "%00" in junk else (200, 204))


def test_the_shortcut_answers_exactly_what_the_full_way_answers(player, player2, stranger,
                                                               staff, settings):
    """Every poll of a matrix (public or private, seated or not, staff, visitor, stale or
    fresh numbers, junk) gets the same status with and without FastPollMiddleware."""
    public = new_match(creator=player, players=[player, player2], start=True)
    private = new_match(creator=player, players=[player, player2], start=True, private=True)
    seat_checkin(match=public, seat=seat_of(public, player2), phase_id=open_phase(public).pk)
    users = {"player": player, "player2": player2, "stranger": stranger, "staff": staff,
             "visitor": None}
    polls = []
    for match in (public, private):
        url = reverse("games:match-poll", args=[match.pk])
        v = match.version
        for query in (f"v={v}&s=0&c=1", f"v={v}&s=0&c=0", f"v={v}&s=1", f"v={v - 1}",
                      f"v={v}&s=0&c=1&a=1", f"v={v}&a=1", "v=x", f"v={v}&c=junk"):
            polls.append(f"{url}?{query}")
    polls.append(reverse("sanguosha:table-poll", args=[public.pk]) + f"?v={public.version}")
    without = [m for m in settings.MIDDLEWARE if m != "games.middleware.FastPollMiddleware"]
    answers = {}
    shortcuts = 0
    for shortcut in (True, False):
        if not shortcut:
            settings.MIDDLEWARE = without
        for name, user in users.items():
            client = client_for(user)  # a new client loads the middleware of the moment
            for url in polls:
                with CaptureQueriesContext(connection) as ctx:
                    resp = client.get(url, headers=HX)
                shortcuts += shortcut and resp.status_code == 204 and len(ctx) == 1
                answers.setdefault((name, url), []).append(
                    (resp.status_code, resp.headers.get("HX-Redirect", "")[:20]))
    differ = {k: v for k, v in answers.items() if v[0] != v[1]}
    assert not differ, differ
    assert shortcuts >= 8  # the matrix does reach the shortcut


@pytest.mark.django_db(transaction=True)
def test_the_poll_skips_the_health_check_and_survives_a_dead_connection(player, player2,
                                                                        monkeypatch):
    """With persistent, health-checked connections (as deployed): the 204 poll sends no
    ``SELECT 1`` before its one query (a page still does); a connection that died since
    the last request sends the poll the full way, which opens a new one and answers 204."""
    match = new_match(creator=player, players=[player, player2], start=True)
    client = client_for(player)
    url = _poll_url(client, match)
    htmx = {"HX-Request": "true"}

    def get(path: str, **kwargs):
        # what a server's request cycle does around each request (Django's test client
        # leaves it out): the connection is checked again on the next request's first query
        close_old_connections()
        return client.get(path, **kwargs)

    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", True)
    connection.close()
    try:
        assert get(url, headers=htmx).status_code == 204  # a persistent connection
        checks: list[bool] = []
        real = connection.is_usable

        def counted() -> bool:
            checks.append(real())
            return checks[-1]

        monkeypatch.setattr(connection, "is_usable", counted)
        assert get(url, headers=htmx).status_code == 204
        assert checks == []  # no health check round trip for the poll
        assert get(reverse("games:match-detail", args=[match.pk])).status_code == 200
        assert checks == [True]  # the page's first query is checked, as Django does

        checks.clear()
        connection.connection.close()  # the server dropped it between two requests
        assert get(url, headers=htmx).status_code == 204
        assert checks == [False]  # the full way found it dead and opened a new one
        assert get(url, headers=htmx).status_code == 204
    finally:
        connection.close()
