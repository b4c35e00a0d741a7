"""Leak tests (sanguosha.md §13): for every seat and a spectator, no page, fragment, API
answer or email contains another seat's hand, a hidden identity, the draw pile's order, or
who is awaited in a Negate window. Secrets are the engine's own data (card labels, card
numbers in form values, identity badges), checked against what each reader may see.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import emails
from games.models import Notification
from games.services.phases import phase_close
from sanguosha import engine
from sanguosha.engine.data import CARD_TYPES, CARDS, RANK_TEXT, SUIT_SYMBOL
from tests.sanguosha.web.conftest import (client_for, make_player, new_table, open_phase,
                                          page_text, seat_client, table_at, table_url)

pytestmark = pytest.mark.django_db


def _labels(n: int) -> list[str]:
    """Ways a card is written on a page: ``Kill ♠7``, ``Kill 杀 ♠7``, ``杀♠7``."""
    c = CARDS[n]
    en, zh = CARD_TYPES[c.id][0], CARD_TYPES[c.id][1]
    sr = f"{SUIT_SYMBOL[c.suit]}{RANK_TEXT.get(c.rank, c.rank)}"
    return [f"{en} {sr}", f"{en} {zh} {sr}", f"{zh}{sr}"]


def _public_cards(st) -> set[int]:
    out = set(st["discard"]) | set(st["proc"])
    for p in st["seats"]:
        out |= {c for c in p["equip"].values() if c is not None} | set(p["judg"])
    return out


def _secrets(st, viewer: int | None) -> tuple[list[str], set[int]]:
    """(text tokens, card numbers) the viewer may not see."""
    public = _public_cards(st)
    mine = set(st["seats"][viewer]["hand"]) if viewer is not None else set()
    hidden: set[int] = set()
    for p in st["seats"]:
        if p["seat"] != viewer:
            hidden |= set(p["hand"])
    hidden |= set(st["draw"][:12])
    hidden -= public | mine
    tokens = [t for n in sorted(hidden) for t in _labels(n)]
    # a label shared with a visible card (EX duplicates) cannot be told apart: skip it
    visible_labels = {t for n in public | mine for t in _labels(n)}
    return [t for t in tokens if t not in visible_labels], hidden


def _identity_ok(st, viewer: int | None, html: str) -> None:
    """Each identity badge on the page belongs to a seat whose identity the viewer may see."""
    for p in st["seats"]:
        tile = re.search(rf'id="seat-{p["seat"]}" data-seat.*?</article>', html, re.S)
        if tile is None:
            continue
        visible = (p["identity"] == "lord" or p["seat"] == viewer or not p["alive"]
                   or st["over"])
        has_badge = "badge id-" in tile.group(0)
        assert has_badge == visible, (p["seat"], viewer)


def _check_text(body: str, tokens: list[str], where: str) -> None:
    text = page_text(type("R", (), {"content": body.encode()})()) if "<" in body else body
    for t in tokens:
        assert t not in text, f"{where}: {t!r} leaked"


def _check_html_numbers(html: str, hidden: set[int], where: str) -> None:
    for n in hidden:
        for pat in (f'name="cards" value="{n}"', f'data-card="{n}"', f'name="place_{n}"',
                    f'name="give_{n}"'):
            assert pat not in html, f"{where}: card number {n} leaked ({pat})"
        assert not re.search(rf"&quot;(use|card|negate|peaches)&quot;:\[?{n}[,}}\]]", html), \
            f"{where}: card number {n} leaked in a button"


def _check_json(data: dict, st, viewer: int | None, hidden: set[int], where: str) -> None:
    view = data.get("view") or {}
    for p in view.get("seats", []):
        if p["seat"] != viewer:
            assert "hand" not in p, where
        if p["identity"] is not None:
            sp = st["seats"][p["seat"]]
            assert sp["identity"] == "lord" or p["seat"] == viewer or not sp["alive"], where
    assert "draw_pile" not in view and "stack" not in view, where
    assert not hidden & {int(k) for k in view.get("cards", {})}, where


def _position_early():
    match = new_table(5, seed="leaks-early")
    for _ in range(2):  # the lord's choice, then everyone's
        phase_close(phase_id=open_phase(match).pk)
    match.refresh_from_db()
    return match


@pytest.fixture(params=["early", "negate_window", "rescue", "discard"])
def position(request):
    if request.param == "early":
        return _position_early()
    return table_at(request.param)


def test_no_page_fragment_or_api_answer_leaks_hidden_information(position):
    match = position
    st = engine.load(match.state).raw
    viewers = [(s, seat_client(match, s)) for s in range(len(st["seats"]))]
    viewers.append((None, client_for(make_player("spectator-leaks"))))
    for viewer, c in viewers:
        tokens, hidden = _secrets(st, viewer)
        urls = {
            "table": table_url(match),
            "fragment": reverse("sanguosha:table-poll", args=[match.pk]),
            "match page": reverse("games:match-detail", args=[match.pk]),
            "match poll": reverse("games:match-poll", args=[match.pk]),
            "lobby": reverse("games:lobby") + "?status=all",
            "api matches": reverse("games:api-matches"),
        }
        for where, url in urls.items():
            resp = c.get(url)
            assert resp.status_code == 200, where
            html = resp.content.decode()
            if where == "api matches":
                html = json.dumps(resp.json(), ensure_ascii=False)
            _check_text(html, tokens, f"{where} for seat {viewer}")
            _check_html_numbers(html, hidden, f"{where} for seat {viewer}")
            if where in ("table", "fragment"):
                _identity_ok(st, viewer, html)
            if st["ask"] and st["ask"]["kind"] == "negate_window":
                assert "awaited</span>" not in html
                assert "checked in</dd>" not in html  # no count of Negate holders
        api = c.get(reverse("games:api-match", args=[match.pk]))
        assert api.status_code == 200
        data = api.json()
        _check_json(data, st, viewer, hidden, f"api for seat {viewer}")
        _check_text(json.dumps(data, ensure_ascii=False), tokens, f"api for seat {viewer}")
        if st["ask"] and st["ask"]["kind"] == "negate_window":
            assert data["phase"]["awaited_count"] is None
            assert data["phase"]["checked_in_count"] is None
        diary = c.get(reverse("games:api-diary", args=[match.pk])).json()
        _check_text(json.dumps(diary, ensure_ascii=False), tokens, f"diary for seat {viewer}")


def test_emails_carry_only_what_their_reader_may_see():
    match = new_table(5, seed="leaks-mail")
    for _ in range(6):  # setup, the deal, the first turns: private draws in the diary
        phase_close(phase_id=open_phase(match).pk)
    match.refresh_from_db()
    st = engine.load(match.state).raw
    rows = list(Notification.objects.filter(match=match).select_related("recipient"))
    assert rows
    by_user = {s.user_id: s.number for s in match.seats.all()}
    private_seen = 0
    for n in rows:
        viewer = by_user[n.recipient_id]
        tokens, _ = _secrets(st, viewer)
        msg = emails.build(n)
        for body in (msg.subject, msg.body, msg.alternatives[0][0]):
            _check_text(body, tokens, f"email {n.kind} to seat {viewer}")
        own = [t for c in st["seats"][viewer]["hand"] for t in _labels(c)]
        if any(t in msg.body for t in own):
            private_seen += 1
    assert private_seen  # a seat's own draws do reach its own email


def test_no_seat_is_served_another_seats_kept_table():
    """The table page is kept in the shared HTML cache (sanguosha.pages.table_page): each
    seat, the director and a visitor read back only their own entry. Every seat loads the
    table twice (rendered, then read back) after every other seat did: each sees its own
    hand and no other seat's hidden card, a changed seat version gives a new entry."""
    from games.lib import htmlcache
    from tests.factories import make_user

    htmlcache.cache.clear()
    match = _position_early()
    st = engine.load(match.state).raw
    readers = [(s, seat_client(match, s)) for s in range(len(st["seats"]))]
    readers.append((None, client_for(make_player("visitor-kept"))))
    director = make_user("director-kept", staff=True)
    pages: dict = {}
    for _round in range(2):
        for viewer, c in readers + [("director", client_for(director))]:
            html = c.get(table_url(match)).content.decode()
            pages.setdefault(viewer, []).append(html)
    for viewer, (first, again) in pages.items():
        _strip = lambda h: re.sub(r"[A-Za-z0-9]{64}", "", h)  # noqa: E731 - CSRF tokens
        assert _strip(first) == _strip(again), viewer  # read back, the same page
        if viewer == "director":
            for p in st["seats"]:  # the director sees every hand
                for n in p["hand"]:
                    assert any(t in page_text(type("R", (), {"content": first.encode()})())
                               for t in _labels(n))
            continue
        tokens, hidden = _secrets(st, viewer)
        _check_text(again, tokens, f"kept table for seat {viewer}")
        _check_html_numbers(again, hidden, f"kept table for seat {viewer}")
        _identity_ok(st, viewer, again)
        if viewer is not None:
            mine = st["seats"][viewer]["hand"]
            assert mine and all(f'data-card="{n}"' in again or any(
                t in again for t in _labels(n)) for n in mine)
    kept = [k for k in htmlcache.cache._cache if ":sgs-table:" in k]  # locmem's keys
    assert len(kept) == len(readers) + 1  # one entry per reader: the seats, visitor, director
    # the CSRF token in the kept HTML is each reader's own
    assert htmlcache.csrf_placeholder() not in "".join(h for v in pages.values() for h in v)
