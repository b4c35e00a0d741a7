"""The board in situations the order tests do not reach: smoke (presences, random attack,
the cloud on the map), teams (allies alive or dead in the panel), an admin-made map without
positions (laid out from its links) used by a real match."""

from __future__ import annotations

import re

import pytest

from killgame import pages, services
from killgame.models import Edge, GameMap, Zone
from tests.killgame.web.conftest import (client_for, close_phase, detail_url, kg_match,
                                         submit, view_of)

pytestmark = pytest.mark.django_db


def test_smoke_hides_names_and_asks_for_random_shots(db):
    match, users = kg_match(4)
    a, b, c, d = users
    for u in (a, b):
        submit(match, u, {"type": "start_zone", "zone": "ponte_ovest"})
    close_phase(match)
    close_phase(match)  # turn 2, Tactical: a and b still together in ponte_ovest
    submit(match, a, {"type": "smoke", "zone": "ponte_ovest"})
    html = client_for(a).get(detail_url(match)).content.decode()
    assert "Smoke grenade on Ponte Ovest." in html
    close_phase(match)  # turn 2, Action: the zone is smoked
    html = client_for(a).get(detail_url(match)).content.decode()
    roster = re.search(r'id="kg-roster".*?</section>', html, re.S).group(0)
    assert "smoke hides" in roster and "u1" not in roster
    assert 'name="attack_random"' in html and 'name="attack_targets"' not in html
    zone = re.search(r'<g class="kg-zone [^"]*" data-zone="ponte_ovest".*?</g>', html, re.S).group(0)
    assert "kg-cloud-smoke" in zone and "smoke" in zone
    # a named target is impossible from the form; a random attack is accepted
    from tests.killgame.web.conftest import post_order

    resp = post_order(client_for(a), match, {"kind": "attack", "attack_weapon": "sniper_rifle",
                                             "attack_random": "1"})
    assert resp.status_code == 302
    assert view_of(match, a)["me"]["orders"][0]["order"]["random"] == 1


def test_teams_panel_lists_allies_alive_or_dead(db):
    match, users = kg_match(4, config={"mode": "teams", "team_count": 2, "min_players": 4})
    html = client_for(users[0]).get(detail_url(match)).content.decode()
    allies = re.search(r'id="kg-allies">(.*?)</dd>', html, re.S).group(1)
    view = view_of(match, users[0])
    assert len(view["allies"]) == 1  # two teams of two: one teammate
    ally = view["allies"][0]
    ally_name = users[[s.number for s in [match.seats.get(user=u) for u in users]].index(
        ally["seat"])].username
    assert f"{ally_name} alive" in allies and "u0" not in allies


def test_an_admin_made_map_without_positions_is_drawn_and_played(db):
    gmap = GameMap.objects.create(slug="isola", name="Isola")
    z = {}
    for i, slug in enumerate(["alfa", "beta", "gamma", "delta", "epsilon", "zeta"]):
        z[slug] = Zone.objects.create(game_map=gmap, slug=slug, name=slug.capitalize(),
                                      closes_at=i + 1 if i < 3 else None,
                                      is_central=slug == "epsilon",
                                      is_default_start=slug == "alfa")
    for a, b in [("alfa", "beta"), ("alfa", "delta"), ("beta", "gamma"), ("beta", "epsilon"),
                 ("gamma", "zeta"), ("delta", "epsilon"), ("epsilon", "zeta"), ("delta", "zeta")]:
        Edge.objects.create(game_map=gmap, a=z[a], b=z[b])
    assert services.map_check(gmap) == ""
    match, users = kg_match(2, config={"map": "isola"}, prefix="is")
    assert match.config["map_data"]["id"] == "isola"
    html = client_for(users[0]).get(detail_url(match)).content.decode()
    for slug in z:
        assert f'id="zone-{slug}"' in html
    assert "Start zone" in html and ">Alfa<" in html
    # the computed layout is deterministic and inside the drawing
    view = view_of(match, users[0])
    first = pages.map_drawing(view, match.config)
    again = pages.map_drawing(view, match.config)
    assert [(q["x"], q["y"]) for q in first["zones"]] == [(q["x"], q["y"]) for q in again["zones"]]
    assert all(5 <= q["x"] <= 95 and 5 <= q["y"] <= 95 for q in first["zones"])
    assert len({(q["x"], q["y"]) for q in first["zones"]}) == 6
    close_phase(match)
    assert view_of(match, users[0])["me"]["zone"] == "alfa"  # the snapshot's default start
