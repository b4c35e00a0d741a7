"""The "your move" count in the nav and title of every page, and the "My games" page
ordered by deadline, all from one query (issue #12)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games import selectors
from games.models import Match, Phase
from games.services.seats import seat_checkin
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def _setup():
    me, other = make_user("me"), make_user("other")
    soon = make_match(users=[me, other], name="Soon")
    later = make_match(users=[me, other], name="Later")
    done = make_match(users=[me, other], name="Done")
    make_match(users=[other, make_user()], name="Not mine")
    base = selectors.current_phase(soon).deadline_at
    Phase.objects.filter(match=soon, closed_at__isnull=True).update(deadline_at=base)
    Phase.objects.filter(match=later, closed_at__isnull=True).update(
        deadline_at=base + timedelta(hours=5))
    Phase.objects.filter(match=done, closed_at__isnull=True).update(
        deadline_at=base + timedelta(hours=1))
    seat_checkin(match=done, seat=done.seats.get(user=me))
    return me, soon, later, done


def test_my_games_lists_by_deadline_with_whether_i_acted(client, django_assert_max_num_queries):
    me, soon, later, done = _setup()
    games = selectors.my_games(me)
    assert [g.match_name for g in games] == ["Soon", "Done", "Later"]
    assert [g.your_move for g in games] == [True, False, True]
    assert games[1].checked_in and games[1].acted
    client.force_login(me)
    client.get(reverse("games:my-games"))  # warm the session and the caches
    # session, user, the user's profile (time zone middleware) and the ONE my_games query
    # (the list, the nav count and the title together)
    with django_assert_max_num_queries(4):
        response = client.get(reverse("games:my-games"))
    page = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"<title>\(2\) My games", page)
    assert 'id="your-move-count"' in page and re.search(r'id="your-move-count"[^>]*>2<', page)
    rows = re.findall(r'<tr( class="your-move")? data-match="(\d+)"', page)
    assert [int(m) for _, m in rows] == [soon.pk, done.pk, later.pk]
    assert "Not mine" not in page and "Done</a>" in page


def test_the_count_is_on_every_page_and_gone_when_nothing_waits(client):
    me, soon, later, done = _setup()
    client.force_login(me)
    for url in (reverse("games:lobby"), reverse("games:match-detail", args=[soon.pk]),
                reverse("accounts:profile")):
        page = client.get(url).content.decode()
        assert "<title>(2) " in page, url
        assert re.search(r'id="your-move-count"[^>]*>2<', page), url
    for match in (soon, later):
        seat_checkin(match=match, seat=match.seats.get(user=me))
    page = client.get(reverse("games:lobby")).content.decode()
    assert "<title>(" not in page and 'id="your-move-count"' not in page
    Match.objects.filter(pk=soon.pk).update(status=Match.Status.FINISHED)
    assert [g.match_name for g in selectors.my_games(me)] == ["Done", "Later"]


def test_visitors_see_no_count_and_my_games_needs_a_login(client):
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'id="your-move-count"' not in page
    response = client.get(reverse("games:my-games"))
    assert response.status_code == 302 and "login" in response["Location"]
