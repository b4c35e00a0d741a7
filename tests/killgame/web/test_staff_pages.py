"""Staff without a seat (the director) see the director view of a Kill Game match, never a
500 (issue 10 §3)."""

from __future__ import annotations

from django.urls import reverse

from tests.killgame.web.conftest import client_for, close_phase, detail_url, kg_match, make_user


def test_staff_without_a_seat_sees_the_director_view_in_every_phase(db):
    match, users = kg_match(3)
    staff = make_user("boss", is_staff=True)
    c = client_for(staff)
    for _ in range(3):
        for url in (detail_url(match), reverse("killgame:watch", args=[match.pk]),
                    reverse("killgame:replay", args=[match.pk]),
                    reverse("games:match-poll", args=[match.pk]),
                    reverse("games:api-match", args=[match.pk])):
            r = c.get(url)
            assert r.status_code < 500, (url, r.content[-3000:])
        close_phase(match)
