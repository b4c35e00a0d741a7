"""Leak tests: for every page and fragment of a running Kill Game match, nothing only
another player may know (their energy, backpack, coins, orders, position outside your zone)
appears in the HTML served to a player or a spectator (§18, docs/design.md "Hidden information").

Bob shops a backpack nobody else has (flamethrower, gas launcher, poisoned crossbow is not
allowed with it, so: flamethrower + gas launcher + 3 C4) and lands far from Alice; his
stored orders and his zone must never reach Alice's pages, the spectator pages or the poll
fragments. A differential check renders Alice's page in two matches that differ only in
Bob's secret choices and requires the same HTML.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Match
from games.services.matches import match_create, match_join, match_start
from tests.killgame.web.conftest import (SMALL, client_for, close_phase, make_user, submit,
                                         view_of)

pytestmark = pytest.mark.django_db

#: while shopping, every item is in the catalogue on everybody's page: Bob's cart and start
#: zone are the secrets
BOB_SECRETS_T1 = ["× flamethrower", "× gas launcher", "3 × C4", "Start in Cave Nord-Est",
                  "Shopping cart:", 'value="3" class="kg-qty"']
BOB_SECRETS = ["flamethrower", "Flamethrower", "lanciafiamme", "Gas launcher", "gas launcher",
               "gas_launcher", "Lanciagas", "3 × C4", "Wear: gas mask", "Cave Nord-Est with"]


def _pages(match: Match) -> list[tuple[str, dict]]:
    return [
        (reverse("games:match-detail", args=[match.pk]), {}),
        (reverse("games:match-poll", args=[match.pk]), {"v": 0}),
        (reverse("killgame:watch", args=[match.pk]), {}),
        (reverse("killgame:replay", args=[match.pk]), {}),
        (reverse("games:api-match", args=[match.pk]), {}),
        (reverse("games:api-diary", args=[match.pk]), {}),
    ]


def _build(users, *, bob_zone: str, bob_cart: dict, seed: str, name: str) -> Match:
    match = match_create(game="killgame", name=name, created_by=users[0],
                         config={**SMALL, "monster_count": 0}, min_players=2, max_players=10)
    Match.objects.filter(pk=match.pk).update(seed=seed)
    for u in users:
        match_join(match=match, user=u)
    match_start(match=match)
    match.refresh_from_db()
    alice, bob, carol = users
    submit(match, alice, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, bob, {"type": "start_zone", "zone": bob_zone})
    submit(match, bob, {"type": "cart", "items": bob_cart})
    return match


def _fetch(client, url, params) -> str:
    resp = client.get(url, params)
    assert resp.status_code in (200, 204, 409), (url, resp.status_code)
    return resp.content.decode()


def test_no_page_or_fragment_leaks_another_players_secrets(db):
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    alice, bob, carol = users
    match = _build(users, bob_zone="cave_nord_est", seed="leak-seed", name="Leaky",
                   bob_cart={"flamethrower": 1, "gas_launcher": 1, "c4": 3, "gas_mask": 1})
    spectator = make_user("watcher")
    viewers = {"alice": client_for(alice), "spectator": client_for(spectator),
               "anonymous": client_for(None)}

    def check(stage: str, secrets: list[str] = BOB_SECRETS) -> None:
        for who, client in viewers.items():
            for url, params in _pages(match):
                if who == "anonymous" and not url.startswith("/killgame/"):
                    continue
                html = _fetch(client, url, params)
                for secret in secrets:
                    assert secret not in html, (stage, who, url, secret)
                if who != "alice":
                    # spectators see no private panel, roster or orders of anybody
                    for private in ("kg-panel", "kg-roster", "Energy 25", "Your stored orders"):
                        assert private not in html, (stage, who, url, private)

    check("turn 1 tactical", BOB_SECRETS_T1)
    close_phase(match)
    bob_view = view_of(match, bob)
    assert bob_view["me"]["firearm"] == "flamethrower"
    submit(match, bob, {"type": "wear", "items": ["gas_mask"]})
    check("turn 1 action")
    html = client_for(alice).get(reverse("games:match-detail", args=[match.pk])).content.decode()
    roster = re.search(r'id="kg-roster".*?</section>', html, re.S).group(0)
    assert "carol" in roster and "bob" not in roster  # Bob is elsewhere
    assert html.count("kg-energy-text") == 1  # only Alice's own energy
    # the map names nobody while the match runs
    assert "kg-people" not in html
    close_phase(match)
    # the market lists every item again: Bob's backpack counts are the secrets now
    check("turn 2 tactical", ["3 × C4", "× flamethrower", "Wear: gas mask",
                              "<td>flamethrower</td><td>450</td><td>245</td><td>1</td>"])


def _normalise(html: str, match: Match) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "CSRF", html)
    html = html.replace(f"/{match.pk}/", "/MATCH/").replace(match.name, "NAME")
    html = re.sub(r'name="phase_id" value="\d+"', "PHASE", html)
    html = re.sub(r"deadline-\d+", "deadline", html)
    html = re.sub(r'&amp;p=\d+', "", html)
    return html


def test_alices_page_is_the_same_whatever_bob_secretly_did(db):
    """Two matches, same seed and players; only Bob's cart and (far) start zone differ."""
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    a = _build(users, bob_zone="cave_nord_est", seed="same",
               bob_cart={"flamethrower": 1, "gas_launcher": 1, "c4": 3}, name="Twin")
    b = _build(users, bob_zone="cave_sud_est", seed="same",
               bob_cart={"shotgun": 1, "medkit": 5}, name="Twin")
    alice = client_for(users[0])
    for match in (a, b):
        close_phase(match)
    pages = []
    for match in (a, b):
        match.refresh_from_db()
        html = alice.get(reverse("games:match-detail", args=[match.pk])).content.decode()
        pages.append(_normalise(html, match))
    # deadlines were computed at slightly different instants: drop <time> contents
    pages = [re.sub(r"<time[^>]*>[^<]*</time>", "T", p) for p in pages]
    assert pages[0] == pages[1]
