"""Who looks back sees what (issue 32): a takeover newcomer reads the seat's past as the
seat saw it (everything is keyed by seat, players/takeover.py), a dead player keeps their
own past, the director reads the omniscient view, a logged-out visitor of a public match the
spectator's; the new-phase email links "what happened last phase"."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games import emails
from games.lib import lookback
from games.models import Match, Notification, Phase, Seat
from games.registry import get_rules
from games.services.seats import seat_replace
from tests.games.lookback.test_killgame_lookback import _match
from tests.killgame.web.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def _api(client, match, n):
    return client.get(reverse("games:api-phase", args=[match.pk, n]))


def _view(match, n, seat, omniscient=False):
    phase = Phase.objects.get(match=match, number=n)
    engine = get_rules(match.game)
    state = engine.load(lookback.opening_snapshot(match, phase).state)
    return engine.omniscient_view(state) if omniscient else engine.player_view(state, seat)


def test_a_takeover_newcomer_reads_the_seats_past_and_the_leaver_no_longer_does(director):
    match, (alice, bob, carol) = _match()
    seat = Seat.objects.get(match=match, user=bob)
    before = _api(client_for(bob), match, 3).json()
    newcomer = make_user("newcomer")
    seat_replace(seat=seat, user=newcomer, actor=director)
    got = _api(client_for(newcomer), match, 3).json()
    assert got["seat"] == seat.number and got["view"] == before["view"]
    assert got["diary"] == before["diary"]
    assert "flamethrower" in str(got["view"]["me"])  # what the seat bought, its own
    gone = _api(client_for(bob), match, 3).json()  # bob left: the spectator's past
    assert gone["seat"] is None and gone["view"] == _view(match, 3, None)


def test_a_dead_player_keeps_their_own_past():
    match, (alice, bob, carol) = _match()
    seat = Seat.objects.get(match=match, user=bob).number
    state = dict(match.state)
    state["players"] = [dict(p, alive=False, died_turn=1) if p["seat"] == seat else p
                        for p in state["players"]]
    Match.objects.filter(pk=match.pk).update(state=state)
    now = client_for(bob).get(reverse("games:api-match", args=[match.pk])).json()
    assert now["view"]["me"]["alive"] is False
    past = _api(client_for(bob), match, 3).json()
    assert past["view"] == _view(match, 3, seat) and past["view"]["me"]["alive"] is True
    html = client_for(bob).get(reverse("games:match-detail", args=[match.pk]),
                               {"phase": 3}).content.decode()
    assert "kg-panel" in html and "You died" not in html


def test_the_director_reads_everything_and_a_visitor_the_spectator_view(director):
    match, _users = _match()
    staff = client_for(director)
    staff.force_login(director)
    data = _api(staff, match, 2).json()
    assert data["omniscient"] is True and data["view"] == _view(match, 2, None, omniscient=True)
    visitor = client_for(None).get(reverse("games:match-detail", args=[match.pk]), {"phase": 2})
    assert visitor.status_code == 200 and 'id="past-phase"' in visitor.content.decode()
    assert "kg-panel" not in visitor.content.decode()
    assert _api(client_for(None), match, 2).status_code == 401  # the API needs a login


def test_the_new_phase_email_links_what_happened_last_phase(settings):
    match, _users = _match()
    n = (Notification.objects.filter(match=match, kind=Notification.Kind.NEW_PHASE)
         .select_related("phase").order_by("-id").first())
    assert n is not None and n.phase is not None
    message = emails.build(n)
    url = f"{settings.SITE_URL}/m/{match.pk}/?phase={n.phase.number - 1}"
    assert url in message.body
    assert url in message.alternatives[0][0]
