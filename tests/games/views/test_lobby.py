"""The lobby (filters, "your move" markers, join/leave), invite links, creating a match
with the game's generated config form, and starting it by hand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from games.services.seats import seat_checkin
from tests.games.views.conftest import new_match, seat_of
from tests.games.views.test_match_page import page_text

pytestmark = pytest.mark.django_db

LOBBY = "/"


def test_lobby_lists_public_forming_and_running_matches_not_private_ones(anon_client, player,
                                                                         player2):
    new_match(creator=player, players=[player], name="Open one")
    new_match(creator=player, players=[player], name="Hidden one", private=True)
    running = new_match(creator=player, players=[player, player2], name="Running one",
                        start=True)
    resp = anon_client.get(LOBBY)
    text = page_text(resp)
    assert "Open one" in text
    assert "Hidden one" not in text
    assert "Running one" in text  # default filter: forming or running, for visitors too
    assert f'href="/m/{running.pk}/">Watch<' in resp.content.decode()  # a spectator link
    # ...which a logged-out visitor may open: the spectator view, not the login page
    page = anon_client.get(f"/m/{running.pk}/")
    assert page.status_code == 200 and "Running one" in page_text(page)
    assert "You are watching this match." in page_text(page)
    text = page_text(anon_client.get(LOBBY, {"status": "forming"}))
    assert "Open one" in text and "Running one" not in text
    text = page_text(anon_client.get(LOBBY, {"status": "running"}))
    assert "Running one" in text and "Open one" not in text
    text = page_text(anon_client.get(LOBBY, {"status": "all", "game": "guess"}))
    assert "Running one" in text and "Open one" in text and "Hidden one" not in text


@pytest.mark.parametrize("query", [{"status": "bogus"}, {"game": "nogame"}, {"status": ""}])
def test_lobby_ignores_junk_filters(anon_client, player, query):
    new_match(creator=player, players=[player], name="Open one")
    resp = anon_client.get(LOBBY, query)
    assert resp.status_code == 200
    assert "Open one" in page_text(resp)


def test_lobby_filter_by_game_excludes_other_games(anon_client, player):
    Match.objects.create(game="othergame", name="Other game match")
    new_match(creator=player, players=[player], name="Guess match")
    text = page_text(anon_client.get(LOBBY, {"game": "guess"}))
    assert "Guess match" in text and "Other game match" not in text


def test_my_matches_show_your_move_until_checked_in(running_match, player, player_client):
    text = page_text(player_client.get(LOBBY))
    assert "My matches" in text and "Test match" in text and "Your move" in text
    seat_checkin(match=running_match, seat=seat_of(running_match, player))
    text = page_text(player_client.get(LOBBY))
    assert "Your move" not in text and "Checked in" in text


def test_join_and_leave_from_the_lobby(player, stranger, stranger_client):
    match = new_match(creator=player, players=[player], name="Open one")
    assert "Join" in page_text(stranger_client.get(LOBBY))
    resp = stranger_client.post(reverse("games:match-join", args=[match.pk]))
    assert resp.status_code == 302
    assert match.seats.filter(user=stranger).exists()
    resp = stranger_client.post(reverse("games:match-join", args=[match.pk]))
    assert resp.status_code == 409 and "already have a seat" in page_text(resp)
    assert "Leave" in page_text(stranger_client.get(LOBBY))
    assert stranger_client.post(reverse("games:match-leave", args=[match.pk])).status_code == 302
    assert not match.seats.filter(user=stranger).exists()


def test_cannot_join_or_leave_a_running_match(running_match, player_client, stranger_client):
    resp = stranger_client.post(reverse("games:match-join", args=[running_match.pk]))
    assert resp.status_code == 409 and "no longer taking players" in page_text(resp)
    resp = player_client.post(reverse("games:match-leave", args=[running_match.pk]))
    assert resp.status_code == 409 and "only before the match starts" in page_text(resp)


def test_invite_link_joins_a_private_match(player, stranger, stranger_client, player_client):
    match = new_match(creator=player, players=[player], private=True)
    page = player_client.get(reverse("games:match-detail", args=[match.pk]))
    invite = reverse("games:match-invite", args=[match.invite_code])
    assert invite in page.content.decode()  # shown to the players
    assert stranger_client.get(reverse("games:match-detail", args=[match.pk])).status_code == 404
    resp = stranger_client.get(invite)
    assert resp.status_code == 200 and "Join this match" in page_text(resp)
    resp = stranger_client.post(invite)
    assert resp.status_code == 302
    assert match.seats.filter(user=stranger).exists()
    assert stranger_client.get(reverse("games:match-detail", args=[match.pk])).status_code == 200


def test_invite_to_a_started_match_is_refused(private_match, stranger_client, stranger):
    invite = reverse("games:match-invite", args=[private_match.invite_code])
    resp = stranger_client.post(invite)
    assert resp.status_code == 409 and "no longer taking players" in page_text(resp)
    assert not private_match.seats.filter(user=stranger).exists()


# --- creating a match -------------------------------------------------------------------

def create_url():
    return reverse("games:match-create-game", args=["guess"])


def test_create_form_shows_every_config_field_with_its_default(player_client):
    resp = player_client.get(reverse("games:match-create"))
    assert "Guess a Number" in page_text(resp)
    resp = player_client.get(create_url())
    html = resp.content.decode()
    text = page_text(resp)
    assert 'name="cfg_rounds"' in html and 'value="3"' in html and "Default: 3." in text
    assert 'name="cfg_timing"' in html and "Default: Schedule." in text
    assert 'name="cfg_crash"' in html and "Default: no." in text
    assert 'min="1"' in html and 'max="50"' in html


def _form(**over):
    data = {"name": "My guess match", "min_players": 2, "max_players": 4,
            "timezone": "Europe/Rome", "phase_hours": "", "starts_at": "",
            "cfg_rounds": 4, "cfg_timing": "check", "join": "on"}
    data.update(over)
    return {k: v for k, v in data.items() if v is not None}


def test_create_a_match_and_join_it(player, player_client):
    resp = player_client.post(create_url(), _form(is_private="on", phase_hours=6))
    assert resp.status_code == 302
    match = Match.objects.get(name="My guess match")
    assert resp["Location"] == reverse("games:match-detail", args=[match.pk])
    assert match.config["rounds"] == 4 and match.config["timing"] == "check"
    assert match.config["crash"] is False  # default filled in
    assert match.is_private and match.created_by == player
    assert match.schedule.get("hours") == 6
    assert match.seats.filter(user=player).exists()


@pytest.mark.parametrize("over,field,message", [
    ({"cfg_rounds": 0}, "cfg_rounds", "greater than or equal to 1"),
    ({"cfg_rounds": 51}, "cfg_rounds", "less than or equal to 50"),
    ({"cfg_rounds": "lots"}, "cfg_rounds", "whole number"),
    ({"cfg_timing": "sometimes"}, "cfg_timing", "Select a valid choice"),
    ({"min_players": 5, "max_players": 3}, "max_players", "cannot be below the minimum"),
    ({"max_players": 1000}, "max_players", "less than or equal to 100"),
    ({"timezone": "Mars/Olympus"}, "timezone", "Select a valid choice"),
    ({"name": ""}, "name", "required"),
    ({"phase_hours": -1}, "phase_hours", "greater than or equal to 1"),
    ({"starts_at": "2001-01-01T10:00"}, "starts_at", "in the future"),
    ({"starts_at": "tomorrow-ish"}, "starts_at", "valid date/time"),
])
def test_create_refuses_bad_input_next_to_the_field(player_client, over, field, message):
    resp = player_client.post(create_url(), _form(**over))
    assert resp.status_code == 400
    html = resp.content.decode()
    assert message in html
    assert f'id="id_{field}"' in html
    assert not Match.objects.filter(name="My guess match").exists()


def test_create_unknown_game_is_404(player_client):
    assert player_client.get("/m/new/nosuchgame/").status_code == 404
    assert player_client.post("/m/new/nosuchgame/", _form()).status_code == 404


def test_creator_starts_the_match_when_enough_joined(player, player2, player_client):
    match = new_match(creator=player, players=[player])
    resp = player_client.post(reverse("games:match-start", args=[match.pk]))
    assert resp.status_code == 409 and "2" in page_text(resp)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FORMING
    from games.services.matches import match_join
    match_join(match=match, user=player2)
    resp = player_client.post(reverse("games:match-start", args=[match.pk]))
    assert resp.status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_create_with_a_start_time_in_the_creators_timezone(player, player_client):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from accounts.models import Profile

    Profile.objects.filter(user=player).update(timezone="Asia/Tokyo")
    resp = player_client.post(create_url(), _form(starts_at="2099-03-01T09:30"))
    assert resp.status_code == 302
    match = Match.objects.get(name="My guess match")
    assert match.starts_at == datetime(2099, 3, 1, 9, 30, tzinfo=ZoneInfo("Asia/Tokyo"))


def test_expired_session_poll_redirects_htmx_to_login(running_match, anon_client):
    url = reverse("games:match-poll", args=[running_match.pk])
    resp = anon_client.get(url, {"v": 1}, HTTP_HX_REQUEST="true")
    assert resp.status_code == 200 and resp.content == b""
    assert resp["HX-Redirect"].startswith(reverse("accounts:login"))


def test_config_prepare_defaults_are_shown_and_only_changes_are_sent(player_client):
    """A game filling settings from its own tables (``config_prepare``) gets them shown as
    the defaults, and the match keeps them unless the creator changed them."""
    from games import registry
    from tests.games import guessgame

    def prepare(config):
        return {"rounds": 7, **config}

    registry.register(guessgame, registry.GameHooks(config_prepare=prepare))
    html = player_client.get(create_url()).content.decode()
    assert 'name="cfg_rounds" value="7"' in html and "Default: 7." in html
    player_client.post(create_url(), _form(name="kept", cfg_rounds=7))
    assert Match.objects.get(name="kept").config["rounds"] == 7
    player_client.post(create_url(), _form(name="changed", cfg_rounds=9))
    assert Match.objects.get(name="changed").config["rounds"] == 9


@pytest.mark.parametrize("slug", ["killgame", "diceslayer", "sanguosha"])
def test_every_installed_game_can_be_created_with_its_defaults(slug, player_client):
    """The generated config form round-trips each real game's defaults into a match."""
    import html as htmllib
    import re

    from games import registry

    if slug not in dict(registry.choices()):
        pytest.skip(f"{slug} is not installed")
    page = player_client.get(reverse("games:match-create-game", args=[slug])).content.decode()
    data = {}
    for m in re.finditer(r'<(input|select|textarea)[^>]*name="([^"]+)"[^>]*>', page):
        tag, name, el = m.group(1), m.group(2), m.group(0)
        if name == "csrfmiddlewaretoken":
            continue
        if tag == "input" and 'type="checkbox"' in el:
            if "checked" in el:
                data[name] = "on"
        elif tag == "input":
            value = re.search(r'value="([^"]*)"', el)
            data[name] = htmllib.unescape(value.group(1)) if value else ""
        elif tag == "textarea":
            data[name] = htmllib.unescape(page[m.end():page.index("</textarea>", m.end())]).strip()
        else:
            chosen = re.search(r'<option value="([^"]*)"[^>]*selected',
                               page[m.end():page.index("</select>", m.end())])
            data[name] = chosen.group(1) if chosen else ""
    data["name"] = f"Real {slug}"
    resp = player_client.post(reverse("games:match-create-game", args=[slug]), data)
    assert resp.status_code == 302, re.findall(r'class="error"[^>]*>(.*?)<', resp.content.decode())
    match = Match.objects.get(name=f"Real {slug}")
    assert player_client.get(reverse("games:match-detail", args=[match.pk])).status_code == 200


def test_hours_per_phase_also_caps_a_check_mode_phase(player_client):
    """The field is never ignored: in CHECK mode it is the longest a phase stays open."""
    from datetime import datetime, timedelta, timezone

    from games.services.schedule import deadline_for

    resp = player_client.post(create_url(), _form(phase_hours=6, cfg_timing="check"))
    assert resp.status_code == 302
    match = Match.objects.get(name="My guess match")
    assert match.schedule["check_max_hours"] == 6
    now = datetime(2026, 7, 1, 9, 0, tzinfo=timezone.utc)
    assert deadline_for(schedule=match.schedule, timezone_name=match.timezone, kind="guess",
                        timing="check", now=now) == now + timedelta(hours=6)
