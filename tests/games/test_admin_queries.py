"""The director's pages run a fixed number of queries: the match page (seats, phases, the
whole diary) whatever the number of players and diary lines, the match list whatever the
number of matches; the seats and phases are shown with their director links."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors
from games.services.orders import order_submit
from games.services.phases import phase_close
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx), response.content.decode()


def _played(players: int, rounds: int):
    match = make_match(players=players, config={"rounds": 5})
    for _ in range(rounds):  # diary lines, private ones among them (each guess)
        phase = selectors.current_phase(match)
        for seat in match.seats.all():
            order_submit(match=match, seat=seat, phase_id=phase.pk, payload={"guess": 5})
        phase_close(phase_id=phase.pk, now=phase.deadline_at)
    match.refresh_from_db()
    return match


def test_the_director_match_page_queries_do_not_grow(client, director):
    client.force_login(director)
    small, big = _played(2, 1), _played(6, 3)
    url = lambda m: reverse("admin:games_match_change", args=[m.pk])  # noqa: E731
    client.get(url(small))  # first request of the session: its one-off queries
    few, _ = _queries(client, url(small))
    many, page = _queries(client, url(big))
    assert many == few
    for seat in big.seats.select_related("user"):
        assert seat.user.username in page
        assert reverse("admin:games_match_seat", args=[big.pk, seat.pk, "replace"]) in page
        assert reverse("admin:games_match_seat", args=[big.pk, seat.pk, "remove"]) in page
    for phase in big.phases.all():
        assert reverse("admin:games_phase_change", args=[phase.pk]) in page
    # every diary line, each private one with the seats that saw it
    private = big.diary.filter(is_public=False).first()
    assert private is not None
    assert f"<td>{private.audience.strip(',')}</td>" in page


def test_the_admin_match_list_queries_do_not_grow(client, director):
    client.force_login(director)
    url = reverse("admin:games_match_changelist")
    make_match(players=2)
    client.get(url)
    few, _ = _queries(client, url)
    matches = [make_match(players=3) for _ in range(6)]
    many, page = _queries(client, url)
    assert many == few
    for match in matches:
        phase = selectors.current_phase(match)
        assert f"#{phase.number} {phase.kind} until" in page
        assert f"3/{match.max_players}" in page


def test_the_admin_match_list_rows_are_djangos_cells(client, director, rf):
    """The rows rendered in Python (games/lib/adminlist.py) are the cells Django's own
    ``items_for_result`` renders: the same classes, link, checkbox and values."""
    import re

    from django.contrib.admin.sites import site
    from django.contrib.admin.templatetags.admin_list import items_for_result

    from games.lib.adminlist import fast_rows
    from games.models import Match

    for i in range(3):
        make_match(players=2 + i)
    Match.objects.filter(pk=make_match(players=2).pk).update(needs_director=True,
                                                             name='<b>"odd" & name</b>')
    request = rf.get(reverse("admin:games_match_changelist") + "?status__exact=running")
    request.user = director
    admin = site._registry[Match]
    cl = admin.get_changelist_instance(request)
    cl.formset = None  # as changelist_view sets it
    assert len(cl.result_list) >= 4

    def norm(html: str) -> str:  # attribute order and quoting aside, the same markup
        html = html.replace("&#x27;", "'").replace("&#39;", "'").replace("&quot;", '"')
        return re.sub(r"\s+", " ", html).strip()

    for obj, row in zip(cl.result_list, fast_rows(cl)):
        django_row = "".join(str(cell) for cell in items_for_result(cl, obj, None))
        assert norm(str(row[0])) == norm(django_row), (row[0], django_row)
    client.force_login(director)
    page = client.get(reverse("admin:games_match_changelist"))
    assert page.status_code == 200
    assert "&lt;b&gt;" in page.content.decode() and "<b>" not in page.content.decode()
