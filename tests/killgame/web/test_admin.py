"""Admin: the Kill Game match form (every §3 setting, defaults, engine validation, map and
schedule), maps checked on save with the engine's map checks, prices from the catalogue
snapshotted into new matches only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from killgame import engine, services
from killgame.models import Edge, GameMap, Item, Zone
from tests.killgame.web.conftest import client_for, kg_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client():
    return client_for(make_user("boss", is_staff=True, is_superuser=True))



def _post_data(**over) -> dict:
    from killgame.admin import KillGameMatchForm

    form = KillGameMatchForm()
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        if isinstance(value, (dict, list)):
            import json
            value = json.dumps(value)
        data[name] = value
    data["name"] = "Admin match"
    data.update(over)
    return {k: v for k, v in data.items() if v is not False}


def test_the_match_form_shows_every_setting_with_its_default(admin_client):
    html = admin_client.get(reverse("admin:killgame_killgamematch_add")).content.decode()
    for spec in engine.config_schema():
        if spec.key in ("map", "map_data", "check_enabled", "timezone", "min_players",
                        "max_players"):
            continue
        assert f'name="cfg_{spec.key}"' in html, spec.key
        assert "Default:" in html
    assert "Classic" in html and "Inferno" in html
    assert "CHECK mode" in html and "13:00" in html and "21:30" in html
    assert 'name="bots_enabled"' in html and 'name="cfg_monster_count"' in html


def test_creating_a_match_snapshots_map_prices_and_schedule(admin_client):
    Item.objects.filter(slug="grenade").update(price=90)
    resp = admin_client.post(reverse("admin:killgame_killgamematch_add"),
                             _post_data(cfg_map="inferno", cfg_monster_count="3",
                                        bots_enabled="on"))
    assert resp.status_code == 302, resp.content.decode()[:3000]
    match = Match.objects.get(name="Admin match")
    assert match.game == "killgame" and match.bots_enabled
    assert match.config["map"] == "inferno"
    assert match.config["map_data"]["central"] == "cerchio_cy"
    assert match.config["monster_count"] == 3
    assert match.config["prices"]["grenade"] == 90
    assert match.schedule["windows"] == {"tactical": "13:00", "action": "21:30"}
    # a later price edit does not touch the existing match
    Item.objects.filter(slug="grenade").update(price=20)
    match.refresh_from_db()
    assert match.config["prices"]["grenade"] == 90


def test_check_mode_and_bad_settings_are_validated_by_the_engine(admin_client):
    url = reverse("admin:killgame_killgamematch_add")
    resp = admin_client.post(url, _post_data(cfg_check_enabled="check", name="Check match"))
    assert resp.status_code == 302
    assert Match.objects.get(name="Check match").config["check_enabled"] is True
    resp = admin_client.post(url, _post_data(cfg_tactical_opens_at="25:99", name="Bad"))
    assert resp.status_code == 200
    assert "must be HH:MM" in resp.content.decode()
    resp = admin_client.post(url, _post_data(cfg_mode="teams", cfg_team_count="5",
                                             min_players="6", name="Bad teams"))
    assert "at least twice the number of teams" in resp.content.decode()
    assert not Match.objects.filter(name__startswith="Bad").exists()


def test_a_map_is_checked_on_save(admin_client):
    gmap = GameMap.objects.get(slug="inferno")
    assert services.map_check(gmap) == ""
    # cut the only link from the first zone to close but one: the open region splits
    zones = {z.slug: z for z in gmap.zones.all()}
    Edge.objects.filter(game_map=gmap, a=zones["cave_nord_ovest"]).delete()
    error = services.map_check(gmap)
    assert error and not GameMap.objects.get(pk=gmap.pk).is_valid
    # the admin form no longer offers it and a match cannot use it
    html = admin_client.get(reverse("admin:killgame_killgamematch_add")).content.decode()
    assert 'value="inferno"' not in html
    with pytest.raises(Exception):
        services.config_build({"map": "inferno"})


def test_the_map_admin_reports_the_check(admin_client):
    gmap = GameMap.objects.get(slug="classic")
    url = reverse("admin:killgame_gamemap_change", args=[gmap.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    zones = list(Zone.objects.filter(game_map=gmap).order_by("id"))
    edges = list(Edge.objects.filter(game_map=gmap).order_by("id"))
    data = {"slug": gmap.slug, "name": gmap.name, "is_active": "on", "description": "",
            "zones-TOTAL_FORMS": len(zones), "zones-INITIAL_FORMS": len(zones),
            "edges-TOTAL_FORMS": len(edges), "edges-INITIAL_FORMS": len(edges)}
    for i, z in enumerate(zones):
        data.update({f"zones-{i}-id": z.pk, f"zones-{i}-game_map": gmap.pk,
                     f"zones-{i}-slug": z.slug, f"zones-{i}-name": z.name,
                     f"zones-{i}-gloss": z.gloss, f"zones-{i}-closes_at": z.closes_at or "",
                     f"zones-{i}-x": z.x, f"zones-{i}-y": z.y})
        if z.is_central:
            data[f"zones-{i}-is_central"] = "on"
        if z.is_default_start:
            data[f"zones-{i}-is_default_start"] = "on"
    for i, e in enumerate(edges):
        data.update({f"edges-{i}-id": e.pk, f"edges-{i}-game_map": gmap.pk,
                     f"edges-{i}-a": e.a_id, f"edges-{i}-b": e.b_id})
    resp = admin_client.post(url, data, follow=True)
    assert "passes the map checks" in resp.content.decode()
    # now mark the central zone as closing last-but-never: the central zone must never close
    central = next(i for i, z in enumerate(zones) if z.is_central)
    data[f"zones-{central}-closes_at"] = 99
    resp = admin_client.post(url, data, follow=True)
    assert "fails the map checks" in resp.content.decode()
    assert not GameMap.objects.get(pk=gmap.pk).is_valid


def test_lobby_created_matches_snapshot_the_db_map_too(db):
    match, _ = kg_match(2, start=False)
    assert match.config["map_data"]["id"] == "inferno"
    assert set(match.config["prices"]) == {i.slug for i in Item.objects.all()}


def test_the_shipped_maps_stay_playable_without_their_rows(db):
    """The engine's data files back classic and inferno when the table lost them."""
    GameMap.objects.filter(slug="classic").delete()
    config = services.config_build({"map": "classic"})
    assert config["map_data"]["central"] == "paese"
    assert config["map_data"]["zones"]["paese"]["x"] == 50
    assert services.builtin_tables_load() == 1
    assert GameMap.objects.get(slug="classic").zones.count() == 19
    assert services.map_check(GameMap.objects.get(slug="classic")) == ""
    with pytest.raises(Exception):
        services.config_build({"map": "atlantis"})
