"""Issue 31's "Done when", on the demo seeding of ``manage.py run`` (``seed_demo``): with API
tokens of demo1 and demo2, a Kill Game match in CHECK mode is created through the API,
demo2 joins and demo1 starts it through the API, both play a turn (the game's own bot
choosing the orders from the API's view, as docs/api.md's bot does) and check in through
the API, and the phase closes; ``/api/schema/`` is valid OpenAPI naming those paths."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import ApiToken
from games.services.phases import phases_close_due

pytestmark = pytest.mark.django_db


def _client(username: str) -> Client:
    user = get_user_model().objects.get(username=username)
    token = ApiToken.objects.create(user=user, name="bot", scope=ApiToken.Scope.LOBBY)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}", enforce_csrf_checks=True)


def _post(c: Client, url: str, body: dict | None = None):
    resp = c.post(url, json.dumps(body or {}), content_type="application/json")
    assert resp.status_code in (200, 201), (url, resp.status_code, resp.content)
    assert resp.json()["ok"] is True
    return resp.json()


def test_a_check_mode_kill_game_through_the_api():
    from games.management.commands.run import seed_demo
    from killgame.engine.bot import bot_orders

    seed_demo(lambda *_: None)
    d1, d2 = _client("demo1"), _client("demo2")

    # create (CHECK mode), join, start
    created = _post(d1, "/api/matches/", {
        "game": "killgame", "name": "API CHECK match", "min_players": 2, "max_players": 4,
        "config": {"check_enabled": True}})
    match = created["match"]
    assert match["status"] == "forming" and match["joined"] and match["may_start"]
    mid = match["id"]
    joined = _post(d2, f"/api/matches/{mid}/join/")["match"]
    assert joined["players"] == 2 and joined["joined"] and not joined["may_start"]
    started = _post(d1, f"/api/matches/{mid}/start/")["match"]
    assert started["status"] == "running"

    # both play a turn, with the game's bot as the brain, and check in
    first = None
    for c in (d1, d2):
        read = c.get(f"/api/matches/{mid}/").json()
        assert read["match"]["status"] == "running" and read["phase"]["you_are_awaited"]
        first = read["phase"]["id"]
        assert read["phase"]["checkin_final"] is True  # CHECK mode
        orders = bot_orders(read["view"], f"api-{read['match']['seat']}")
        assert orders
        for order in orders:
            _post(c, f"/api/matches/{mid}/orders/", {
                "order": order, "phase_id": first, "version": read["match"]["version"]})
        _post(c, f"/api/matches/{mid}/checkin/", {"phase_id": first})

    phases_close_due()  # the sweep (the queued close is only a shortcut)
    after = d1.get(f"/api/matches/{mid}/").json()
    assert after["phase"]["id"] != first and after["phase"]["kind"] == "action"
    assert after["phase"]["you_checked_in"] is False
    entries = d1.get(f"/api/matches/{mid}/diary/").json()["entries"]
    assert entries  # the closed phase wrote the seat's diary

    # the schema is valid OpenAPI 3.1 and names those paths
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation import OpenAPIV31SpecValidator

    schema = Client().get("/api/schema/").json()
    validate(schema, cls=OpenAPIV31SpecValidator)
    paths = schema["paths"]
    assert "post" in paths["/api/matches/"]
    for action in ("join", "start", "orders", "checkin"):
        assert "post" in paths[f"/api/matches/{{match_id}}/{action}/"]
    assert "get" in paths["/api/matches/{match_id}/"]
