"""The press panel on the three games' match pages, its no-JS forms and htmx fragments,
unread counts in the nav and the lobby, and a match page whose query count stays flat in
the number of messages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Seat
from press.models import Message
from press.services import message_post
from tests.press.conftest import client_for, kg_team_match, seat_no

pytestmark = pytest.mark.django_db


def detail(match):
    return reverse("games:match-detail", args=[match.pk])


def test_panel_is_on_the_generic_and_kill_game_match_pages(trio):
    match, (ann, ben, _c) = trio
    message_post(match=match, user=ben, to="all", text="visible to ann")
    html = client_for(ann).get(detail(match)).content.decode()
    assert 'id="press"' in html and "visible to ann" in html and 'id="press-form"' in html
    kg, users = kg_team_match(4)
    html = client_for(users[0]).get(detail(kg)).content.decode()
    assert 'id="press"' in html and 'value="team"' in html


def test_panel_on_the_sanguosha_table_with_public_board_only(db):
    from tests.sanguosha.web.conftest import new_table, seat_user, table_url

    match = new_table(4)
    user = seat_user(match, 1)
    message_post(match=match, user=user, to="all", text="peach anyone?")
    html = client_for(seat_user(match, 2)).get(table_url(match)).content.decode()
    assert 'id="press"' in html and "peach anyone?" in html
    assert 'name="seats"' not in html  # public only: no private conversations offered


def test_panel_on_the_dice_slayer_versus_page(db):
    from diceslayer import services
    from tests.games.views.conftest import make_user

    alice, bob = make_user("dsa"), make_user("dsb")
    match = services.versus_create(challenger=alice, opponent=bob)
    match = services.challenge_accept(match=match, user=bob)
    match.refresh_from_db()
    message_post(match=match, user=alice, to=[seat_no(match, bob)], text="good luck")
    html = client_for(bob).get(reverse("diceslayer:play", args=[match.pk])).content.decode()
    assert 'id="press"' in html and "good luck" in html


def test_no_js_post_redirects_back_to_the_page(trio):
    match, (ann, ben, cat) = trio
    c = client_for(ann)
    resp = c.post(reverse("press:post", args=[match.pk]),
                  {"text": "hi ben", "seats": [seat_no(match, ben)], "next": detail(match)})
    assert resp.status_code == 302 and resp["Location"] == detail(match) + "#press"
    m = Message.objects.get()
    assert m.channel == "private" and sorted(m.members) == sorted(
        [seat_no(match, ann), seat_no(match, ben)])
    assert "hi ben" in client_for(ben).get(detail(match)).content.decode()
    assert "hi ben" not in client_for(cat).get(detail(match)).content.decode()


def test_no_js_refusal_keeps_the_text_and_answers_4xx(trio):
    match, (ann, *_r) = trio
    resp = client_for(ann).post(reverse("press:post", args=[match.pk]),
                                {"text": "x" * 2001, "next": "https://evil.example/"})
    assert resp.status_code == 400
    html = resp.content.decode()
    assert "at most 2000 characters" in html and "x" * 2001 in html
    assert not Message.objects.exists()


def test_htmx_post_returns_the_panel_and_the_poll_answers_204_when_nothing_is_new(trio):
    match, (ann, ben, _c) = trio
    c = client_for(ann)
    resp = c.post(reverse("press:post", args=[match.pk]), {"text": "via htmx"},
                  HTTP_HX_REQUEST="true")
    assert resp.status_code == 200 and 'id="press"' in resp.content.decode()
    last = Message.objects.get().pk
    poll = reverse("press:list", args=[match.pk])
    assert client_for(ben).get(poll, {"after": last}, HTTP_HX_REQUEST="true").status_code == 204
    resp = client_for(ben).get(poll, {"after": 0}, HTTP_HX_REQUEST="true")
    assert resp.status_code == 200 and "via htmx" in resp.content.decode()


def test_markup_arrives_escaped_and_links_are_nofollow(trio):
    match, (ann, ben, _c) = trio
    message_post(match=match, user=ann, to="all",
                 text='<script>alert(1)</script> see https://example.org/x?a=1&b="2"')
    html = client_for(ben).get(detail(match)).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'href="https://example.org/x?a=1&amp;b=" rel="nofollow noopener"' in html


def test_unread_counts_in_nav_and_lobby_then_reading_clears_them(trio):
    match, (ann, ben, _c) = trio
    message_post(match=match, user=ann, to=[seat_no(match, ben)], text="one")
    message_post(match=match, user=ann, to="all", text="two")
    c = client_for(ben)
    lobby = c.get(reverse("games:lobby")).content.decode()
    assert 'id="press-unread-count">2<' in lobby and "2 unread" in lobby
    nav = c.get(reverse("press:unread")).content.decode()
    assert 'id="press-unread-count">2<' in nav
    mine = c.get(reverse("games:my-games")).content.decode()
    assert "2 unread" in mine
    c.get(detail(match))  # reading the page marks the messages read
    assert "press-unread-count" not in c.get(reverse("press:unread")).content.decode()
    own = client_for(ann).get(reverse("press:unread")).content.decode()
    assert "press-unread-count" not in own  # my own messages are never unread


def test_report_mute_and_hide_from_the_page(trio, staff):
    match, (ann, ben, _c) = trio
    m = message_post(match=match, user=ann, to="all", text="spam spam")
    resp = client_for(ben).post(reverse("press:report", args=[match.pk, m.pk]),
                                {"next": detail(match)})
    assert resp.status_code == 302 and m.reports.count() == 1
    resp = client_for(ben).post(reverse("press:mute", args=[match.pk]),
                                {"seat": seat_no(match, ann), "mute": "1"})
    assert resp.status_code == 302
    assert "spam spam" not in client_for(ben).get(detail(match)).content.decode()
    assert client_for(ben).post(reverse("press:hide", args=[match.pk, m.pk])).status_code == 403
    assert client_for(staff).post(reverse("press:hide", args=[match.pk, m.pk])).status_code == 302
    html = client_for(ann).get(detail(match)).content.decode()
    assert "spam spam" not in html and "hidden by the director" in html
    admin = client_for(staff).get(reverse("admin:press_report_changelist")).content.decode()
    assert "spam spam" in admin
    r = m.reports.get()
    page = client_for(staff).get(reverse("admin:press_report_change", args=[r.pk]))
    assert page.status_code == 200 and "spam spam" in page.content.decode()


def test_bad_input_never_500s(trio):
    match, (ann, *_r) = trio
    c = client_for(ann)
    assert c.post(reverse("press:post", args=[match.pk]), {"text": "x", "seats": "abc"}
                  ).status_code == 400
    assert c.post(reverse("press:mute", args=[match.pk]), {"seat": "zz"}).status_code == 400
    assert c.post(reverse("press:report", args=[match.pk, 999999])).status_code == 404
    assert c.get(reverse("press:page", args=[match.pk]), {"before": "zz"}).status_code == 200
    assert c.get(reverse("press:list", args=[match.pk]), {"after": "zz"}).status_code == 204
    assert c.get(reverse("press:page", args=[999999])).status_code == 404


def test_match_page_query_count_is_flat_in_the_number_of_messages(
        trio, django_assert_max_num_queries, settings):
    settings.PRESS_RATE_LIMIT = (10_000, 60)
    match, (ann, ben, cat) = trio
    c = client_for(ben)
    message_post(match=match, user=ann, to="all", text="first")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:  # one unread message
        c.get(detail(match))
    for i in range(80):
        message_post(match=match, user=[ann, cat][i % 2],
                     to="all" if i % 3 else [seat_no(match, ben)], text=f"m{i}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = c.get(detail(match)).content.decode()
    assert "m79" in html and "m0<" not in html and 'id="press-older"' in html
    older = c.get(reverse("press:page", args=[match.pk]),
                  {"before": Message.objects.order_by("-id")[29].pk}).content.decode()
    assert "m49" in older and "m79" not in older


def test_forming_match_players_may_use_the_public_board_only(db):
    from tests.games.views.conftest import make_user, new_match

    a, b = make_user("fa"), make_user("fb")
    match = new_match(creator=a, players=[a, b], start=False)
    message_post(match=match, user=a, to="all", text="waiting")
    assert Seat.objects.filter(match=match, number__isnull=True).count() == 2
    html = client_for(b).get(detail(match)).content.decode()
    assert "waiting" in html
