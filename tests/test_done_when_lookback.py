"""Issue 32's "Done when", on the demo of ``make run`` (``seed_demo``): after the demo Kill
Game match has closed a phase, demo1 opens the previous phase's board from the match page
and through the API; it differs from the current one where the phase changed it (demo1's
zone and backpack, the phase); demo2's past view of the same phase shows nothing only demo1
could see (demo1's private diary rows, demo1's own panel)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import DiaryEntry, Match, Phase
from games.services.phases import phases_close_due

pytestmark = pytest.mark.django_db


def _login(username: str) -> Client:
    c = Client(raise_request_exception=False)
    c.force_login(get_user_model().objects.get(username=username))
    return c


def _post(c: Client, url: str, body: dict):
    return c.post(url, json.dumps(body), content_type="application/json")


def _section(html: str, ident: str) -> str:
    found = re.search(rf'<section id="{ident}".*?(?=<section id="past-diary"|</main>|$)',
                      html, re.S)
    assert found, ident
    return found.group(0)


def test_demo1_looks_back_at_the_previous_phase_and_demo2_sees_nothing_of_demo1s():
    from games.management.commands.run import seed_demo

    seed_demo(lambda *_: None)
    match = Match.objects.get(game="killgame")
    d1, d2 = _login("demo1"), _login("demo2")
    api = reverse("games:api-match", args=[match.pk])
    orders = reverse("games:api-order-submit", args=[match.pk])
    players = [s.user.username for s in match.seats.order_by("number")]

    # the first phase: demo1 picks a start zone and shops (private), everyone checks in
    before = d1.get(api).json()
    zones = before["view"]["map"]
    start = zones["default_start"]
    assert _post(d1, orders, {"order": {"type": "start_zone", "zone": start}}).status_code == 200
    cart = _post(d1, orders, {"order": {"type": "cart", "items": {"medkit": 2}}})
    assert cart.status_code == 200, cart.content
    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    for username in players:
        r = _post(_login(username), reverse("games:api-checkin", args=[match.pk]),
                  {"phase_id": phase.pk})
        assert r.status_code == 200, r.content
    phases_close_due()
    phase.refresh_from_db()
    assert phase.closed_at is not None  # at least one phase closed

    # demo1 opens the previous phase from the match page: the selector links it
    live = d1.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert f'/m/{match.pk}/?phase={phase.number}"' in live and 'id="lookback-select"' in live
    page = d1.get(reverse("games:match-detail", args=[match.pk]), {"phase": phase.number})
    assert page.status_code == 200
    past_board = _section(page.content.decode(), "past-phase")
    live_board = re.search(r'<section id="board".*?</section>\s*(?=<section|<div|\{)', live, re.S)
    assert live_board is not None

    # … and through the API
    past = d1.get(reverse("games:api-phase", args=[match.pk, phase.number])).json()
    now = d1.get(api).json()
    assert past["ok"] and past["phase"]["number"] == phase.number
    # it differs from the current one where the phase changed it
    assert past["view"] != now["view"]
    assert past["view"]["phase"] == "tactical" and now["view"]["phase"] == "action"
    assert past["view"]["me"]["zone"] in (None, "") and now["view"]["me"]["zone"]
    assert "medkit" not in past["view"]["me"]["items"]
    assert now["view"]["me"]["items"].get("medkit") == 2
    assert "Tactical" in past_board and past_board != live_board.group(0)

    # demo2's past view of the same phase: nothing only demo1 could see
    d1_seat = match.seats.get(user__username="demo1").number
    d2_seat = match.seats.get(user__username="demo2").number
    only_d1 = [r.seq for r in DiaryEntry.objects.filter(match=match, phase=phase)
               if not r.is_public and f",{d1_seat}," in r.audience
               and f",{d2_seat}," not in r.audience]
    assert only_d1, "demo1 has private diary rows of that phase"
    d1_texts = [e["text"] for e in past["diary"] if e["seq"] in only_d1]
    assert d1_texts and all(t in page.content.decode() for t in d1_texts)
    past2 = d2.get(reverse("games:api-phase", args=[match.pk, phase.number])).json()
    page2 = d2.get(reverse("games:match-detail", args=[match.pk]),
                   {"phase": phase.number}).content.decode()
    assert not {e["seq"] for e in past2["diary"]} & set(only_d1)
    own2 = {e["text"] for e in past2["diary"]}  # demo2's own rows may read the same
    d1_texts = [t for t in d1_texts if t not in own2]
    assert d1_texts, "demo1 has a private line demo2 has no twin of"
    for text in d1_texts:
        assert text not in page2 and text not in json.dumps(past2, ensure_ascii=False)
    assert past2["view"]["me"] != past["view"]["me"]
    assert past2["view"]["me"]["seat"] == d2_seat
