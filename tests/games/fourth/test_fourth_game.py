"""A fourth game is added with one change outside its folder: its name in ``GAME_APPS``.

This folder holds the whole game (a sealed-bid auction: ``engine/``, ``apps.py``,
``templates/fourth/board.html``); nothing outside it names the game (checked below). The
tests add ``tests.games.fourth`` to ``GAME_APPS`` — in a subprocess through the environment
(``GAME_APPS=…``, read by the settings), in-process by deriving the installed apps from it as
the settings do — and the framework gives it a lobby entry, a create form, admin pages,
phases, a diary with the players' names, import contracts, a strict type check and the
periodic jobs, with no other edit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from mypy import api as mypy_api

from games import registry
from games.models import Match, Phase
from tests.architecture import layers
from tests.games.fourth import engine

ROOT = Path(__file__).resolve().parents[3]
FOLDER = Path(__file__).resolve().parent
APP = "tests.games.fourth"


def with_game(game_apps: list[str]) -> list[str]:
    """The installed apps as the settings derive them from ``GAME_APPS``."""
    framework = [a for a in settings.INSTALLED_APPS if a not in settings.GAME_APPS]
    return [*framework, *game_apps]


@pytest.fixture
def fourth(settings):
    settings.GAME_APPS = [*settings.GAME_APPS, APP]
    settings.INSTALLED_APPS = with_game(settings.GAME_APPS)  # runs the app's ready()
    yield registry.get_game("auction")
    registry.unregister("auction")


def test_nothing_outside_the_folder_names_the_fourth_game():
    """The one change outside the folder is GAME_APPS, and it is made by the tests only."""
    out = subprocess.run(["git", "grep", "-l", "-e", "tests.games.fourth", "-e", '"auction"',
                          "-e", "'auction'", "--", ".", f":!{FOLDER.relative_to(ROOT)}"],
                         cwd=ROOT, capture_output=True, text=True)
    mentions = [p for p in out.stdout.split() if not p.startswith("docs/")]
    assert mentions in ([], ["tests/architecture/test_done_when_structure.py"]), mentions


def test_the_game_is_installed_by_gamesapps_alone_in_a_fresh_process():
    """``GAME_APPS`` from the environment (no other setting): the game registers, its jobs,
    urls and contracts are derived."""
    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from django.urls import reverse\n"
        "from games import registry\n"
        "from config.celery import beat_schedule\n"
        "from tests.architecture import layers\n"
        f"assert '{APP}' in settings.INSTALLED_APPS\n"
        "game = registry.get_game('auction')\n"
        "print(game.name, game.hooks.board_template)\n"
        "print(reverse('games:match-create-game', args=['auction']))\n"
        "assert 'phases-close-due' in beat_schedule()\n"
        f"assert '{APP}.engine' in str(layers.contracts(settings.GAME_APPS))\n")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "GAME_APPS": ",".join([*settings.GAME_APPS, APP])}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Sealed-Bid Auction fourth/board.html" in done.stdout
    assert "/m/new/auction/" in done.stdout


@pytest.mark.django_db
def test_lobby_create_form_admin_and_diary(fourth, client, django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw")
    bob = django_user_model.objects.create_user("bob", "bob@example.com", "pw")
    director = django_user_model.objects.create_user("boss", "boss@example.com", "pw",
                                                     is_staff=True, is_superuser=True)
    client.force_login(alice)
    # the lobby and the game picker offer it
    assert "Sealed-Bid Auction" in client.get(reverse("games:match-create")).content.decode()
    # the create form is built from its config schema
    url = reverse("games:match-create-game", args=["auction"])
    form = client.get(url).content.decode()
    assert 'name="cfg_lots"' in form and 'name="cfg_budget"' in form
    resp = client.post(url, {"name": "Going once", "min_players": 2, "max_players": 2,
                             "timezone": "Europe/Rome", "join": "on", "cfg_lots": 1,
                             "cfg_budget": 50})
    assert resp.status_code == 302, resp.content.decode()[:2000]
    match = Match.objects.get(name="Going once")
    assert match.game == "auction" and match.config == {"lots": 1, "budget": 50}
    assert "Going once" in client.get(reverse("games:lobby")).content.decode()
    # the press default comes from its hooks (press names no game)
    from press import access

    assert access.settings_for(match).rules == "public"
    client.force_login(bob)
    assert client.post(reverse("games:match-join", args=[match.pk])).status_code == 302
    client.force_login(alice)
    assert client.post(reverse("games:match-start", args=[match.pk])).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    # the generic board shows the game's template; a bid is sealed (only its bidder sees it)
    page = client.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert "Lot 1 of 1" in page and "You have 50 coins." in page
    assert client.post(reverse("games:order-submit", args=[match.pk]),
                       {"order": '{"bid": 30}'}).status_code == 302
    assert "Your sealed bid: 30." in client.get(
        reverse("games:match-detail", args=[match.pk])).content.decode()
    client.force_login(bob)
    other = client.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert "Your sealed bid" not in other and "bid of 30" not in other
    assert client.post(reverse("games:order-submit", args=[match.pk]),
                       {"order": '{"bid": 20}'}).status_code == 302
    # the phase closes (the beat's sweep, or a director): the diary names the players
    from games.services.phases import phase_close

    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    assert phase_close(phase_id=phase.pk, force=True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    diary = client.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert "went to alice for 30" in diary and "alice bid 30." in diary
    assert "seat 1 bid" not in diary and "seat 2 bid" not in diary  # names, not seats
    # the admin lists and opens it
    client.force_login(director)
    changelist = client.get(reverse("admin:games_match_changelist")).content.decode()
    assert "Going once" in changelist
    assert client.get(reverse("admin:games_match_change", args=[match.pk])).status_code == 200
    # the rating mode comes from its hooks (players names no game)
    from players.ratings import rating_mode

    assert rating_mode(match) == "auction"


def test_the_engine_keeps_bids_sealed_until_the_close():
    state = engine.setup({"lots": 2, "budget": 40}, [1, 2], "seed")
    state = engine.submit(state, 1, {"bid": 25}).state
    assert engine.player_view(state, 2)["my_bid"] is None
    assert engine.player_view(state, 1)["my_bid"] == 25
    assert engine.load(engine.dump(state)) == state
    with pytest.raises(Exception, match="Bid from 0 to your 40 coins"):
        engine.submit(state, 2, {"bid": 41})
    result = engine.resolve(state, "seed")
    assert result.state.coins == (15, 40)
    assert [e.kind for e in result.events] == ["bid_revealed", "bid_revealed", "lot_sold"]


def test_the_contracts_and_the_strict_type_check_take_it_from_gamesapps():
    games = [*settings.GAME_APPS, APP]
    config = layers.contracts(games)
    engines = next(c for c in config["contracts"] if c["name"].startswith("Engines"))
    assert f"{APP}.engine" in engines["source_modules"]
    independent = next(c for c in config["contracts"] if c["type"] == "independence")
    assert APP in independent["modules"]
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                     "--no-error-summary", "--show-error-codes",
                                     "--disallow-untyped-defs", str(FOLDER / "engine")])
    assert status == 0, out[-4000:] + err[-1000:]
