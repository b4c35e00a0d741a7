"""The Kill Game new-match form, in the lobby and in the admin (issue #10): one field per
setting, no duplicate or contradictory field, the same settings in both, and every setting
reaching the match (its config, schedule and own fields); diary lines of a map an admin made
name its zones."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from django.urls import reverse

from games import selectors
from games.models import Match
from killgame import engine, services
from killgame.models import Edge, GameMap, Zone
from tests.killgame.web.conftest import client_for, close_phase, kg_match, make_user

pytestmark = pytest.mark.django_db
LOBBY_ONLY = {"join"}  # "I play in this match": the admin creates matches for others
ADMIN_ONLY: set[str] = set()


def _own_map() -> GameMap:
    gmap = GameMap.objects.create(slug="isola", name="Isola")
    names = {"zona_a1": "Old Mill", "zona_b2": "Bell Tower", "zona_c3": "Dry Well",
             "zona_d4": "Salt Flats", "zona_e5": "Market Square", "zona_f6": "North Gate"}
    z = {}
    for i, slug in enumerate(names):
        z[slug] = Zone.objects.create(game_map=gmap, slug=slug, name=names[slug],
                                      closes_at=i + 1 if i < 3 else None,
                                      is_central=slug == "zona_e5",
                                      is_default_start=slug == "zona_a1")
    for a, b in [("zona_a1", "zona_b2"), ("zona_a1", "zona_d4"), ("zona_b2", "zona_c3"),
                 ("zona_b2", "zona_e5"), ("zona_c3", "zona_f6"), ("zona_d4", "zona_e5"),
                 ("zona_e5", "zona_f6"), ("zona_d4", "zona_f6")]:
        Edge.objects.create(game_map=gmap, a=z[a], b=z[b])
    assert services.map_check(gmap) == ""
    return gmap


def _names(html: str) -> list[str]:
    form = next(f for f in re.findall(r"<form\b.*?</form>", html, re.S) if 'name="name"' in f)
    return [n for n in re.findall(r'name="([^"]+)"', form) if n != "csrfmiddlewaretoken"]


def _lobby_url() -> str:
    return reverse("games:match-create-game", args=["killgame"])


def _admin_url() -> str:
    return reverse("admin:killgame_killgamematch_add")


@pytest.fixture
def boss():
    return client_for(make_user("boss", is_staff=True, is_superuser=True))


def test_the_lobby_form_asks_each_setting_once_and_never_hours_per_phase():
    html = client_for(make_user("maker")).get(_lobby_url()).content.decode()
    names = _names(html)
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    for dup in ("cfg_min_players", "cfg_max_players", "cfg_timezone"):
        assert dup not in names  # asked once, as the match's own field
    assert "phase_hours" not in names  # the deadlines come from the settings below
    settings = {n.removeprefix("cfg_") for n in names}
    for spec in engine.config_schema():
        assert spec.key in settings, spec.key
    assert "CHECK mode" in html and "Scheduled" in html


def test_lobby_and_admin_offer_the_same_settings(boss):
    _own_map()
    lobby = set(_names(boss.get(_lobby_url()).content.decode()))
    # the admin page adds its save buttons and splits a date-time into date and time
    admin = {re.sub(r"^(starts_at)_[01]$", r"\1", n)
             for n in _names(boss.get(_admin_url()).content.decode())
             if not n.startswith(("_", "initial-")) and n != "killgamematch"}
    assert lobby - LOBBY_ONLY == admin - ADMIN_ONLY
    for html in (boss.get(_lobby_url()).content.decode(), boss.get(_admin_url()).content.decode()):
        assert 'value="isola"' in html  # the admin-made map is offered in both


def _non_default(spec: Any) -> Any:
    """A valid value for ``spec`` that differs from its default."""
    d = spec.default
    special = {"tactical_opens_at": "12:15", "action_opens_at": "20:45", "map": "isola",
               "mode": "teams", "team_count": 3, "check_enabled": True,
               "market_regime_weights": [10, 15, 50, 25]}
    if spec.key in special:
        return special[spec.key]
    if spec.type == "int":
        return d + 1 if spec.max is None or d + 1 <= spec.max else d - 1
    if spec.type == "bool":
        return not d
    if spec.type == "json":
        v = copy.deepcopy(d)
        if spec.key == "weapons":
            v["shotgun"]["damage"] += 1
        elif spec.key == "prices":
            v["grenade"] = v["grenade"] + 7
        elif spec.key in ("rewards", "punishments"):
            v[0][-1] += 1
        return v
    raise AssertionError(f"no test value for {spec.key}")


def _post_every_setting() -> tuple[dict[str, str], dict[str, Any]]:
    data = {"name": "Every setting", "min_players": "7", "max_players": "12",
            "timezone": "America/New_York", "is_private": "on", "bots_enabled": "on",
            "starts_at": "2099-05-01T10:00",  # early_close unticked: on by default
            "press": "public"}
    expected: dict[str, Any] = {"min_players": 7, "max_players": 12,
                                "timezone": "America/New_York"}
    for spec in engine.config_schema():
        if spec.key in expected or spec.key == "map_data":
            continue
        value = _non_default(spec)
        expected[spec.key] = value
        if spec.key == "check_enabled":
            data["cfg_check_enabled"] = "check"
        elif spec.type == "bool":
            if value:
                data["cfg_" + spec.key] = "on"
        elif spec.type == "json":
            data["cfg_" + spec.key] = json.dumps(value)
        else:
            data["cfg_" + spec.key] = str(value)
    return data, expected


def _assert_every_setting_reached(match: Match, expected: dict[str, Any]) -> None:
    for key, value in expected.items():
        assert match.config[key] == value, key
    assert match.config["map_data"]["id"] == "isola"
    assert (match.min_players, match.max_players) == (7, 12)
    assert match.timezone == "America/New_York"
    assert match.is_private and match.bots_enabled and not match.early_close
    assert match.starts_at is not None and match.starts_at.year == 2099
    from press.models import MatchPress
    assert MatchPress.objects.get(match=match).rules == "public"
    assert match.schedule["windows"] == {"tactical": "12:15", "action": "20:45"}


def test_every_lobby_setting_reaches_the_match():
    _own_map()
    maker = make_user("maker")
    data, expected = _post_every_setting()
    data["join"] = "on"
    resp = client_for(maker).post(_lobby_url(), data)
    assert resp.status_code == 302, re.findall(r'class="errors?[^"]*"[^>]*>(.*?)<', resp.content.decode())
    match = Match.objects.get(name="Every setting")
    _assert_every_setting_reached(match, expected)
    assert match.seats.filter(user=maker).exists()


def test_every_admin_setting_reaches_the_match(boss):
    _own_map()
    data, expected = _post_every_setting()
    day, time = data.pop("starts_at").split("T")  # the admin splits date and time
    data.update({"starts_at_0": day, "starts_at_1": time})
    resp = boss.post(_admin_url(), data)
    assert resp.status_code == 302, re.findall(r'errorlist[^>]*>(.*?)</ul>', resp.content.decode())
    _assert_every_setting_reached(Match.objects.get(name="Every setting"), expected)


def test_check_mode_from_the_lobby_closes_on_check_and_caps_at_24_hours():
    maker = make_user("maker")
    data = _lobby_initial()
    data.update({"name": "Check match", "cfg_check_enabled": "check"})
    resp = client_for(maker).post(_lobby_url(), data)
    assert resp.status_code == 302
    match = Match.objects.get(name="Check match")
    assert match.config["check_enabled"] is True and match.schedule["check_max_hours"] == 24


def _lobby_initial() -> dict[str, str]:
    """What the lobby form posts when nothing is changed."""
    from games.forms import MatchCreateForm
    from games.registry import get_game

    form = MatchCreateForm(game=get_game("killgame"))
    out = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value is None or value is False:
            continue
        out[name] = ("on" if value is True else
                     json.dumps(value) if isinstance(value, (dict, list)) else str(value))
    return out


def test_the_unchanged_lobby_form_makes_the_rules_defaults():
    resp = client_for(make_user("maker")).post(_lobby_url(), {**_lobby_initial(),
                                                              "name": "Defaults"})
    assert resp.status_code == 302
    match = Match.objects.get(name="Defaults")
    assert match.config == engine.validate_config(services.config_build({
        "min_players": match.min_players, "max_players": match.max_players,
        "timezone": match.timezone}))
    assert match.config["check_enabled"] is False and match.schedule["mode"] == "windows"


def test_diary_lines_of_an_admin_made_map_name_its_zones():
    _own_map()
    match, users = kg_match(2, config={"map": "isola"}, prefix="dz")
    close_phase(match)
    seat = match.seats.get(user=users[0]).number
    texts = [line.text for line in selectors.diary_for_seat(match, seat)]
    joined = " ".join(texts)
    assert "Old Mill" in joined, texts
    assert not re.search(r"\bzona_[a-f]\d\b", joined), texts
