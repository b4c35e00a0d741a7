"""Issue 13's "done when", on the ``make run`` demo seeding: in the demo Kill Game match,
demo1's private message to another seat is read by that seat only (API and match page), a
public one by every seat, markup arrives escaped, and an anonymous visitor reads nothing
private."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.management.commands.run import Command
from games.models import Match, Seat
from tests.press.conftest import api_get, api_post, client_for

pytestmark = pytest.mark.django_db

SECRET = "<b>meet me at the bridge</b> & bring the knife"
PUBLIC = "<i>hello everyone</i>"


def test_demo_kill_game_private_and_public_messages(db):
    from killgame.services import builtin_tables_load

    builtin_tables_load()
    Command()._seed_matches()
    match = Match.objects.get(game="killgame", name__startswith="Demo")
    assert match.status == Match.Status.RUNNING
    seats = list(Seat.objects.filter(match=match, removed_at__isnull=True)
                 .select_related("user").order_by("number"))
    assert len(seats) >= 3
    by_name = {s.user.username: s for s in seats}
    demo1 = by_name["demo1"]
    target = next(s for s in seats if s.user.username != "demo1")
    others = [s for s in seats if s.pk not in (demo1.pk, target.pk)]

    resp = api_post(client_for(demo1.user), match, {"to": [target.number], "text": SECRET})
    assert resp.status_code == 201, resp.content
    resp = api_post(client_for(demo1.user), match, {"to": "all", "text": PUBLIC})
    assert resp.status_code == 201

    page = reverse("games:match-detail", args=[match.pk])
    escaped_secret = "&lt;b&gt;meet me at the bridge&lt;/b&gt; &amp; bring the knife"
    for seat in seats:
        api = [m["text"] for m in api_get(client_for(seat.user), match).json()["messages"]]
        html = client_for(seat.user).get(page).content.decode()
        assert PUBLIC in api
        assert "&lt;i&gt;hello everyone&lt;/i&gt;" in html and "<i>hello everyone</i>" not in html
        if seat.pk in (demo1.pk, target.pk):
            assert SECRET in api
            assert escaped_secret in html and "<b>meet me" not in html
        else:
            assert SECRET not in api
            assert "meet me at the bridge" not in html
    assert others, "the demo has a third seat that must not read the private message"

    anon = Client()
    assert anon.get(reverse("press:api-messages", args=[match.pk])).status_code == 401
    for url in (page, reverse("press:page", args=[match.pk]),
                reverse("press:list", args=[match.pk]), reverse("killgame:watch", args=[match.pk])):
        resp = anon.get(url)
        assert "meet me at the bridge" not in resp.content.decode()
