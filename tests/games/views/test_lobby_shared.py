"""The lobby's public list is rendered once per row state and shared between readers
(games/lib/lobby.py): every change shows at once, and nothing of one reader (their seats,
their forms' CSRF token, their "My matches", their language) reaches another."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games.lib.htmlcache import csrf_placeholder
from games.models import Match, Seat
from games.services.matches import match_join, match_start
from games.services.phases import phase_close
from games.services.seats import seat_checkin
from tests.games.views.conftest import client_for, make_user, new_match, open_phase, seat_of
from tests.games.views.test_match_page import page_text

pytestmark = pytest.mark.django_db

LOBBY = "/"


def _row(resp, name: str) -> str:
    """The ``<li>`` of the public list that names ``name``."""
    body = resp.content.decode()
    listing = body[body.index('id="open-matches"'):]
    for item in re.findall(r"<li>.*?</li>", listing, re.S):
        if f">{name}</a>" in item:
            return item
    return ""


def test_every_change_of_a_match_shows_at_once(player, player2, stranger):
    reader = client_for(stranger)
    match = new_match(creator=player, players=[player], name="Changing")
    assert "1 / 10 players" in page_text(reader.get(LOBBY))  # rendered, now remembered
    match_join(match=match, user=player2)
    assert "2 / 10 players" in _row(reader.get(LOBBY), "Changing")
    new_match(creator=player, players=[player], name="Brand new")
    assert _row(reader.get(LOBBY), "Brand new")
    match_start(match=match)
    row = _row(reader.get(LOBBY), "Changing")
    assert "Running" in row and "Watch" in row and "Join" not in row
    Match.objects.filter(pk=match.pk).update(name="Renamed")  # even behind the services' back
    assert _row(reader.get(LOBBY), "Renamed") and not _row(reader.get(LOBBY), "Changing")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert not _row(reader.get(LOBBY), "Renamed")
    assert _row(reader.get(LOBBY, {"status": "finished"}), "Renamed")
    Match.objects.filter(pk=match.pk).update(is_private=True)
    assert not _row(reader.get(LOBBY, {"status": "all"}), "Renamed")


def test_a_phase_change_shows_at_once_in_my_matches(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True, name="Phased")
    reader = client_for(player)
    seat_checkin(match=match, seat=seat_of(match, player))
    mine = page_text(reader.get(LOBBY)).split("Matches")[0]
    assert "Checked in" in mine and "Your move" not in mine
    phase_close(phase_id=open_phase(match).pk, now=timezone.now())  # the next phase opens
    mine = page_text(reader.get(LOBBY)).split("Matches")[0]
    assert "Your move" in mine and "Checked in" not in mine


def test_per_reader_parts_are_never_shared(player, player2, stranger):
    new_match(creator=player, players=[player], name="Forming one")
    new_match(creator=player, players=[player, player2], start=True, name="Running one")
    seated, other, visitor = client_for(player), client_for(stranger), Client()
    for _ in range(2):  # the second round reads every row from the memo
        mine = seated.get(LOBBY)
        theirs = other.get(LOBBY)
        anon = visitor.get(LOBBY)
        assert "Leave" in _row(mine, "Forming one") and "Join" not in _row(mine, "Forming one")
        assert "Join" in _row(theirs, "Forming one") and "Leave" not in _row(theirs, "Forming one")
        assert "<form" not in _row(anon, "Forming one")
        assert "Watch" not in _row(mine, "Running one")  # a player does not "watch"
        assert "Watch" in _row(theirs, "Running one") and "Watch" in _row(anon, "Running one")
        assert "Running one" in page_text(mine).split("Matches")[0]  # "My matches"
        assert "Running one" not in page_text(theirs).split("Matches")[0]


def test_each_reader_gets_their_own_csrf_token_and_it_works(player, stranger):
    match = new_match(creator=player, players=[player], name="Open one")
    tokens = []
    for user in (player, stranger, player):
        client = Client(enforce_csrf_checks=True)
        client.force_login(user)
        row = _row(client.get(LOBBY), "Open one")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', row).group(1)
        assert csrf_placeholder() not in row
        tokens.append((client, user, token))
    assert len({t for _, _, t in tokens}) == 3
    client, user, token = tokens[1]
    resp = client.post(reverse("games:match-join", args=[match.pk]),
                       {"csrfmiddlewaretoken": token})
    assert resp.status_code == 302 and Seat.objects.filter(match=match, user=user).exists()
    client, user, _ = tokens[2]
    resp = client.post(reverse("games:match-leave", args=[match.pk]),
                       {"csrfmiddlewaretoken": tokens[1][2]})  # another reader's token
    assert resp.status_code == 403


def test_each_reader_reads_the_list_in_their_language(player, stranger):
    new_match(creator=player, players=[player], name="Open one")
    Profile.objects.update_or_create(user=stranger, defaults={"language": "it"})
    english = _row(client_for(player).get(LOBBY), "Open one")
    italian = _row(client_for(stranger).get(LOBBY), "Open one")
    assert "players" in english and "Join" not in english  # seated: Leave
    assert "players" not in italian and italian != english


def test_a_match_name_is_escaped_and_cannot_fake_the_token(player, stranger):
    new_match(creator=player, players=[player], name=f"<b>x</b>{csrf_placeholder()[:8]}")
    body = client_for(stranger).get(LOBBY).content.decode()
    assert "&lt;b&gt;x&lt;/b&gt;" in body and "<b>x</b>" not in body


def test_the_lobby_costs_three_queries_whatever_the_matches(player, django_assert_num_queries):
    reader = make_user("reader")
    client = client_for(reader)
    for n in (1, 12):
        for i in range(n):
            users = [make_user(f"u{n}_{i}_{k}") for k in range(3)]
            new_match(creator=users[0], players=users + [reader], name=f"m{n}_{i}",
                      start=bool(i % 2))
        client.get(LOBBY)
        # the user, the public list, "My matches" (which gives the nav its count too)
        with django_assert_num_queries(3):
            assert client.get(LOBBY, {"status": "all"}).status_code == 200


def test_the_nav_count_on_the_lobby_is_the_same_as_elsewhere(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True, name="Counted")
    client = client_for(player)
    badge = re.compile(r'id="your-move-count"[^>]*>(\d+)<')
    assert badge.search(client.get(LOBBY).content.decode()).group(1) == "1"
    assert badge.search(client.get("/m/new/").content.decode()).group(1) == "1"
    seat_checkin(match=match, seat=seat_of(match, player))
    assert not badge.search(client.get(LOBBY).content.decode())
    assert not badge.search(client.get("/m/new/").content.decode())


def test_the_lobby_and_its_shell_work_while_the_cache_is_down(player, player2):
    from django.test.utils import override_settings

    new_match(creator=player, players=[player, player2], start=True, name="Still listed")
    client = client_for(player)  # logged in while the cache works
    down = {"default": {"BACKEND": "config.cache.RedisCache",
                        "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens: every call fails
    with override_settings(CACHES=down):
        resp = client.get(LOBBY)
        assert resp.status_code == 200 and "Still listed" in page_text(resp)
        assert ">alice<" in resp.content.decode()
