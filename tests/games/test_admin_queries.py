"""The director's pages run a fixed number of queries: the match page (seats, phases, the
whole diary) whatever the number of players and diary lines, the match list whatever the
number of matches; the seats and phases are shown with their director links."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors
from games.lib import htmlcache
from games.services.orders import order_submit
from games.services.phases import phase_close
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx), response.content.decode()


def _diary_table(page: str) -> str:
    start = page.index("<th>seq</th>")
    return page[start:page.index("</table>", start)]


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
    htmlcache.cache.clear()  # the diary and the full state rendered anew on both
    htmlcache.big_local.clear()  # (this process's copy of them too)
    few, _ = _queries(client, url(small))
    htmlcache.cache.clear()
    htmlcache.big_local.clear()
    many, page = _queries(client, url(big))
    assert many == few
    # read back from the HTML cache: the whole diary and the state cost no query
    kept, again = _queries(client, url(big))
    assert kept <= many - 2
    assert _diary_table(again) == _diary_table(page)
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
    # the "By game" filter lists the registered games: no DISTINCT scan of every match
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    assert not [q["sql"] for q in ctx.captured_queries if "DISTINCT" in q["sql"]]
    assert "?game__exact=" in page
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


def test_the_director_page_shows_each_change_at_once(client, director):
    """The kept diary and state are keyed by what they show: a close (new diary rows, a
    new state) and a rename show on the next load, never the kept copy."""
    from games.models import DiaryEntry

    client.force_login(director)
    match = _played(3, 1)
    url = reverse("admin:games_match_change", args=[match.pk])
    first = client.get(url).content.decode()
    assert client.get(url).content.decode().count("<tr>") == first.count("<tr>")
    phase = selectors.current_phase(match)
    before = DiaryEntry.objects.filter(match=match).count()
    order_submit(match=match, seat=match.seats.first(), phase_id=phase.pk, payload={"guess": 3})
    state_before = _state_block(client.get(url).content.decode())
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    match.refresh_from_db()
    assert DiaryEntry.objects.filter(match=match).count() > before
    after = client.get(url).content.decode()
    last = DiaryEntry.objects.filter(match=match).order_by("-seq").first()
    assert f"<td>{last.seq}</td>" in _diary_table(after)
    assert _state_block(after) != state_before
    seat = match.seats.select_related("user").first()
    seat.user.username = "renamed_player"
    seat.user.save()
    assert "renamed_player" in _diary_table(client.get(url).content.decode())


def _state_block(page: str) -> str:
    start = page.index("<pre style=")
    return page[start:page.index("</details>", start)]


def test_the_director_log_shows_the_latest_actions_and_links_to_every_one(client, director):
    from games.admin import DIRECTOR_LOG_ROWS
    from games.models import DirectorAction

    client.force_login(director)
    match = make_match(players=2)
    DirectorAction.objects.bulk_create(
        DirectorAction(match=match, actor=director, action="edit", details={"n": i})
        for i in range(DIRECTOR_LOG_ROWS + 5))
    page = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    every = reverse("admin:games_directoraction_changelist") + f"?match__id__exact={match.pk}"
    assert every.replace("&", "&amp;") in page or every in page
    assert page.count('{&quot;n&quot;: ') == DIRECTOR_LOG_ROWS
    listed = client.get(every)
    assert listed.status_code == 200


def test_a_formed_match_shows_its_settings_read_only_and_saves_the_rest(client, director):
    from games.models import Match

    client.force_login(director)
    running = make_match(players=2)
    url = reverse("admin:games_match_change", args=[running.pk])
    page = client.get(url).content.decode()
    assert 'name="config"' not in page and 'name="max_players"' not in page
    assert 'name="director_note"' in page
    form = {"name": running.name, "timezone": running.timezone, "schedule": "{}",
            "director_note": "looked at it", "early_close": "on"}
    answer = client.post(url, form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    running.refresh_from_db()
    assert running.director_note == "looked at it" and running.config
    forming = Match.objects.create(game=running.game, name="forming one", config={})
    page = client.get(reverse("admin:games_match_change", args=[forming.pk])).content.decode()
    assert 'name="config"' in page and 'name="max_players"' in page
