"""Diary per turn and phase in the reader's language (English, Italian) with player names,
the public feed for players and spectators, the spectator page without login, and the
post-game replay from the Snapshots (every position once the match is over, §18.7)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Match
from tests.killgame.web.conftest import (client_for, close_phase, detail_url, kg_match, submit)

pytestmark = pytest.mark.django_db


def _played(config=None):
    match, users = kg_match(3, config={"closed_zone_damage": 100, "monster_count": 0,
                                       **(config or {})})
    alice, bob, carol = users
    submit(match, alice, {"type": "start_zone", "zone": "ceppo"})
    submit(match, bob, {"type": "start_zone", "zone": "cave_nord_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "cave_nord_ovest"})
    close_phase(match)
    submit(match, bob, {"type": "attack", "weapon": "sniper_rifle",
                        "targets": ["p" + str(match.seats.get(user=carol).number)]})
    close_phase(match)
    return match, users


def test_diary_is_grouped_by_turn_and_phase_with_names(db):
    match, (alice, bob, carol) = _played()
    html = client_for(carol).get(detail_url(match)).content.decode()
    diary = re.search(r'id="kg-diary".*?</section>', html, re.S).group(0)
    assert "Turn 1" in diary and "Action phase" in diary and "Tactical phase" in diary
    assert re.search(r"u1 attacked you with the sniper rifle for \d+", diary), diary
    feed = re.search(r'id="kg-feed".*?</section>', html, re.S).group(0)
    assert "Cave Nord-Ovest is now closed" in feed
    assert "attacked" not in feed  # attacks are not public


def test_diary_in_italian_for_an_italian_reader(db):
    match, (alice, bob, carol) = _played()
    carol.profile.language = "it"
    carol.profile.save()
    html = client_for(carol).get(detail_url(match)).content.decode()
    diary = re.search(r'id="kg-diary".*?</section>', html, re.S).group(0)
    assert "u1" in diary and "fucile di precisione" in diary, diary


def test_spectators_see_the_feed_and_map_states_only(db):
    match, users = _played()
    for client in (client_for(None),):
        html = client.get(reverse("killgame:watch", args=[match.pk])).content.decode()
        assert "z-closed" in html and "Cave Nord-Ovest is now closed" in html
        assert "attacked" not in html and "Energy" not in html
    # a logged-in stranger on the match page: the map and the feed, no panel or diary
    from tests.killgame.web.conftest import make_user

    html = client_for(make_user("stranger")).get(detail_url(match)).content.decode()
    assert 'id="kg-map"' in html and 'id="kg-feed"' in html
    assert 'id="kg-panel"' not in html and 'id="kg-diary"' not in html


def test_replay_opens_after_the_end_with_every_position(db):
    match, (alice, bob, carol) = _played()
    url = reverse("killgame:replay", args=[match.pk])
    assert client_for(None).get(url).status_code == 409  # not over yet
    close_phase(match)  # Bob and Carol stayed in the closed zone: Alice wins
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    resp = client_for(None).get(url, {"step": 1})
    html = resp.content.decode()
    assert resp.status_code == 200
    assert "Turn 1, tactical phase closed" in html
    people = re.search(r'id="replay-people".*?</table>', html, re.S).group(0)
    assert "Ceppo" in people and "Cave Nord-Ovest" in people  # every position
    assert match.seed in html  # the seed is public now
    events = re.search(r'id="replay-events".*?</ol>', html, re.S).group(0)
    assert "u0: You start in Ceppo." in events and "u2: You start in Cave Nord-Ovest." in events
    assert client_for(None).get(url, {"step": "junk"}).status_code == 200
    assert client_for(None).get(url, {"step": 999}).status_code == 200
    final = client_for(alice).get(detail_url(match)).content.decode()
    assert "u0 won" in final and 'id="kg-replay-link"' in final
    assert "z-reachable" not in final and "z-closing-next" not in final  # nothing moves now


def test_the_feed_opens_the_latest_turn_and_older_turns_on_demand(db):
    match, users = _played()
    close_phase(match)  # turn 2's Tactical close: the two in the closed zone die
    client = client_for(users[0])
    html = client.get(detail_url(match)).content.decode()
    feed = re.search(r'id="kg-feed".*?</section>', html, re.S).group(0)
    turns = [int(t) for t in re.findall(r">T(\d+) [TA]<", feed)]
    assert turns and set(turns) == {2}  # only the latest turn is loaded
    assert 'hx-get="/m/%d/diary/?turn=1&amp;part=kg-feed"' % match.pk in feed
    assert 'href="?diary=1#kg-feed-t1"' in feed  # the same turn without JavaScript
    # htmx: the turn's public rows only
    part = client.get(reverse("games:match-diary", args=[match.pk]),
                      {"turn": 1, "part": "kg-feed"}, headers={"HX-Request": "true"})
    assert part.status_code == 200
    body = part.content.decode()
    assert body.startswith('<div id="kg-feed-t1">') and "Cave Nord-Ovest is now closed" in body
    assert "attacked" not in body and ">T2 " not in body
    # no JavaScript: the match page with turn 1 open too, newest first
    html = client.get(detail_url(match), {"diary": 1}).content.decode()
    feed = re.search(r'id="kg-feed".*?</section>', html, re.S).group(0)
    turns = [int(t) for t in re.findall(r">T(\d+) [TA]<", feed)]
    assert turns == sorted(turns, reverse=True) and turns[0] == 2 and turns[-1] == 1
    diary = re.search(r'id="kg-diary".*?</section>', html, re.S).group(0)
    assert '<details id="kg-diary-t1" open>' in diary
    # the fragment URL opened directly goes to the page; a bad turn is refused
    plain = client.get(reverse("games:match-diary", args=[match.pk]), {"turn": 1})
    assert plain.status_code == 302 and plain["Location"].endswith("?diary=1#diary-t1")
    assert client.get(reverse("games:match-diary", args=[match.pk]),
                      {"turn": "x"}).status_code == 400


def test_the_diary_fragment_shows_only_the_readers_rows(db):
    match, (alice, bob, carol) = _played()
    close_phase(match)
    url = reverse("games:match-diary", args=[match.pk])
    mine = client_for(carol).get(url, {"turn": 1, "part": "kg-diary"},
                                 headers={"HX-Request": "true"}).content.decode()
    assert re.search(r"u1 attacked you with the sniper rifle", mine), mine
    theirs = client_for(alice).get(url, {"turn": 1, "part": "kg-diary"},
                                   headers={"HX-Request": "true"}).content.decode()
    assert "attacked" not in theirs and "Turn 1" in theirs


def test_the_diary_says_what_you_heard_next_door(db):
    match, (alice, bob, carol) = kg_match(3, config={"monster_count": 0}, prefix="h")
    submit(match, alice, {"type": "start_zone", "zone": "er_cristallo"})  # next to the quarry
    submit(match, bob, {"type": "start_zone", "zone": "cave_nord_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "cave_nord_ovest"})
    close_phase(match)
    submit(match, bob, {"type": "attack", "weapon": "sniper_rifle",
                        "targets": ["p" + str(match.seats.get(user=carol).number)]})
    close_phase(match)
    html = client_for(alice).get(detail_url(match)).content.decode()
    diary = re.search(r'id="kg-diary".*?</section>', html, re.S).group(0)
    assert re.search(r'class="kg-private kg-heard">You heard 1 shot from Cave Nord-Ovest',
                     diary), diary
    assert "attacked" not in diary  # who shot whom stays in that zone
