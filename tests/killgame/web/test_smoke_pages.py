"""The Kill Game match page renders in every phase for players, spectators and the
director, and the spectator/replay pages work."""

from __future__ import annotations

from django.urls import reverse

from tests.killgame.web.conftest import client_for, close_phase, detail_url, kg_match


def test_pages_render_through_a_whole_turn(db):
    match, users = kg_match(4)
    c = client_for(users[0])
    r = c.get(detail_url(match))
    assert r.status_code == 200, r.content[:2000]
    html = r.content.decode()
    assert "kg-map" in html and "Shopping" in html
    close_phase(match)
    r = c.get(detail_url(match))
    assert r.status_code == 200
    assert "Attack" in r.content.decode()
    close_phase(match)
    html = c.get(detail_url(match)).content.decode()
    assert "Market" in html
    assert client_for(None).get(reverse("killgame:watch", args=[match.pk])).status_code == 200
