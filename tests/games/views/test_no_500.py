"""Junk everywhere, never a 500: every URL we define, for every persona, with junk query
strings, junk form fields and junk JSON bodies, on matches in every status."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from tests.games.views.conftest import client_for, new_match

pytestmark = pytest.mark.django_db

JUNK_FORMS = [
    {},
    {"order": "\x00\x01", "phase_id": "💥", "version": "9" * 40},
    {"order": "{" * 500, "phase_id": "-0", "version": "NaN"},
    {"order": '{"guess": 1e308}', "phase_id": "1 OR 1=1"},
    {"order": "[]", "version": "-99999999999999999999", "next": "//evil.example"},
]
JUNK_BODIES = [
    b"null", b'{"order": {"guess": 1e999}}', b'{"phase_id": 1.5, "version": "1"}',
    b"\xc3\x28", b'{"order": {"guess": 5}, "phase_id": 99999999999999999999999}',
]
JUNK_QUERIES = [{"v": "-1", "p": "y", "o": "2", "since": "1e9"},
                {"game": "\x00", "status": "💥", "v": "9" * 50, "since": "9" * 50}]

GAME_POSTS = ["games:match-join", "games:match-leave", "games:match-start",
              "games:order-submit", "games:checkin", "games:checkin-withdraw"]
API_POSTS = ["games:api-order-submit", "games:api-checkin", "games:api-checkin-withdraw"]
GETS = ["games:match-detail", "games:match-poll", "games:api-match", "games:api-diary"]


@pytest.fixture
def matches(player, player2, staff):
    from games.services.matches import match_end, match_pause

    forming = new_match(creator=player, players=[player, player2], name="forming")
    running = new_match(creator=player, players=[player, player2], start=True, name="running")
    paused = new_match(creator=player, players=[player, player2], start=True, name="paused")
    match_pause(match=paused, actor=staff)
    over = new_match(creator=player, players=[player, player2], start=True, name="over")
    match_end(match=over, actor=staff, reason="test")
    private = new_match(creator=player2, players=[player2], private=True, name="private")
    return [Match.objects.get(pk=m.pk) for m in (forming, running, paused, over, private)]


@pytest.mark.parametrize("role", ["anon", "stranger", "player", "staff"])
def test_junk_never_500s(role, matches, player, stranger, staff):
    user = {"anon": None, "stranger": stranger, "player": player, "staff": staff}[role]
    c = client_for(user)
    statuses = set()
    for match in matches:
        for name in GETS:
            for q in JUNK_QUERIES:
                statuses.add(c.get(reverse(name, args=[match.pk]), q).status_code)
        for name in GAME_POSTS:
            for data in JUNK_FORMS:
                statuses.add(c.post(reverse(name, args=[match.pk]), data).status_code)
            statuses.add(c.post(reverse(name, args=[match.pk]), JUNK_FORMS[1],
                                HTTP_HX_REQUEST="true").status_code)
        for name in API_POSTS:
            for body in JUNK_BODIES:
                statuses.add(c.post(reverse(name, args=[match.pk]), body,
                                    content_type="application/json").status_code)
        statuses.add(c.post(reverse("games:match-invite", args=[match.invite_code]),
                            JUNK_FORMS[1]).status_code)
    for q in JUNK_QUERIES:
        statuses.add(c.get(reverse("games:lobby"), q).status_code)
        statuses.add(c.get(reverse("games:api-matches"), q).status_code)
    statuses.add(c.post(reverse("games:match-create-game", args=["guess"]),
                        {"name": "x" * 500, "min_players": "💥", "cfg_rounds": "1e5",
                         "starts_at": "99999-99-99"}).status_code)
    statuses.add(c.post(reverse("accounts:profile"), {"timezone": "\x00",
                                                      "reminder_hours": "∞"}).status_code)
    assert all(s < 500 for s in statuses), statuses
