"""The page shell (base.html): its nav, head and footer pieces are rendered once per
process and language (``{% memo %}``, games/templatetags/shell_tags.py) and never carry
one reader's name, rights, count or CSRF token to another."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from games.lib.htmlcache import csrf_placeholder
from games.services.seats import seat_checkin
from tests.games.views.conftest import new_match, seat_of

pytestmark = pytest.mark.django_db

PAGE = "/m/new/"


def _client(user, *, csrf=False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def _nav(body: str) -> str:
    return body[body.index("<nav"):body.index("</nav>")]


def test_each_reader_gets_their_own_name_rights_and_count(player, player2, staff):
    new_match(creator=player, players=[player, player2], start=True)
    for _ in range(2):  # the second round comes from the memo
        alice = _nav(_client(player).get(PAGE).content.decode())
        bob = _nav(_client(player2).get(PAGE).content.decode())
        director = _nav(_client(staff).get(PAGE).content.decode())
        assert ">alice<" in alice and ">bob<" not in alice
        assert ">bob<" in bob and ">alice<" not in bob
        assert "/admin/" in director and "/admin/" not in alice
        assert 'id="your-move-count"' in alice and 'id="your-move-count"' not in director


def test_the_your_move_count_changes_at_once(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    client = _client(player)
    assert 'id="your-move-count" title="1 match waits for your move">1<' in client.get(PAGE).content.decode()
    seat_checkin(match=match, seat=seat_of(match, player))
    assert 'id="your-move-count"' not in client.get(PAGE).content.decode()


def test_the_csrf_token_is_the_readers_own_and_logs_them_out(player, player2):
    tokens = {}
    for user in (player, player2):
        client = _client(user, csrf=True)
        client.get(PAGE)
        body = client.get(PAGE).content.decode()
        header = re.search(r'"X-CSRFToken": "([^"]+)"', body).group(1)
        form = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', _nav(body)).group(1)
        assert csrf_placeholder() not in body and header == form
        tokens[user.username] = (client, form)
    alice, alice_token = tokens["alice"]
    _, bob_token = tokens["bob"]
    assert alice_token != bob_token
    assert alice.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": bob_token}).status_code == 403
    assert alice.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": alice_token}).status_code == 302


def test_the_shell_speaks_each_readers_language(player, player2):
    Profile.objects.update_or_create(user=player2, defaults={"language": "it"})
    english = _nav(_client(player).get(PAGE).content.decode())
    italian = _nav(_client(player2).get(PAGE).content.decode())
    assert "My games" in english and "Log out" in english
    assert "My games" not in italian and "Log out" not in italian


def test_a_visitor_gets_the_login_links(client):
    body = client.get("/").content.decode()
    assert reverse("accounts:login") in _nav(body) and "Log out" not in body


def test_without_a_request_the_block_is_simply_rendered():
    template = Template("{% load shell_tags %}{% memo who %}[{{ who }}{% csrf_token %}]{% endmemo %}")
    assert template.render(Context({"who": "a"})) == "[a]"
    assert template.render(Context({"who": "b"})) == "[b]"
    assert template.render(Context({"who": "c", "csrf_token": "tok"})).startswith("[c<input")
    unhashable = template.render(Context({"who": ["x"], "csrf_token": "tok"}))
    assert "[[&#x27;x&#x27;]" in unhashable and 'value="tok"' in unhashable
