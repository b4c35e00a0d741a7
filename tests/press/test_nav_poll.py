"""The nav's unread badge polls ``press:unread?v=<count shown>``: 204 while the count holds,
answered before the rest of the stack (``games.lib.polls``, one query, no user object),
the new badge once a message arrives, and no 204 for a session the full way would end."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from press.services import message_post
from tests.press.conftest import client_for, seat_no

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def _poll_url(client) -> str:
    page = client.get(reverse("games:my-games")).content.decode()
    return re.search(r'id="press-unread" href="[^"]*" hx-get="([^"]+)"', page).group(1)


def test_the_nav_poll_is_204_in_one_query_until_a_message_arrives(trio):
    match, (ann, ben, _c) = trio
    client = client_for(ben)
    url = _poll_url(client)
    assert url.endswith("?v=0")
    assert client.get(url, headers=HX).status_code == 204
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, headers=HX).status_code == 204
    assert len(ctx) == 1
    message_post(match=match, user=ann, to=[seat_no(match, ben)], text="psst")
    answer = client.get(url, headers=HX)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert 'id="press-unread-count">1<' in body and "?v=1" in body
    assert client.get(reverse("press:unread") + "?v=1", headers=HX).status_code == 204


def test_no_204_for_a_visitor_a_changed_password_or_staff(trio, staff):
    match, (ann, ben, _c) = trio
    assert client_for(None).get(reverse("press:unread") + "?v=0").status_code == 200
    client = client_for(ben)
    url = _poll_url(client)
    assert client.get(url, headers=HX).status_code == 204
    ben.set_password("a-new-long-passphrase-7")
    ben.save()
    answer = client.get(url, headers=HX)
    assert answer.status_code == 200 and "hx-get" not in answer.content.decode()  # logged out
    director = client_for(staff)
    with CaptureQueriesContext(connection) as ctx:
        assert director.get(reverse("press:unread") + "?v=0", headers=HX).status_code == 204
    assert len(ctx) > 1  # the full way (staff are never answered early)


@pytest.mark.parametrize("junk", ["v=", "v=x", "v=-1", "v=1e3", "v=99999999999999999999"])
def test_junk_counts_get_the_badge_never_a_500(trio, junk):
    _match, (_ann, ben, _c) = trio
    answer = client_for(ben).get(reverse("press:unread") + "?" + junk, headers=HX)
    assert answer.status_code == 200 and 'id="press-unread"' in answer.content.decode()
