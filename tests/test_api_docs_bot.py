"""docs/api.md's Python bot, run as written: the code block under "A bot in Python" is
executed twice (demo1's and demo2's tokens, on the demo seeding of ``manage.py run``); its
``requests`` session is served in-process by Django (a transport adapter over the test
client, so the test's database is the server's). demo1's copy creates a CHECK-mode Kill
Game match, demo2's joins, demo1's starts it, both play a phase with the game's bot, and
the phase closes."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import ApiToken
from games.services.phases import phases_close_due

pytestmark = pytest.mark.django_db
DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


class DjangoAdapter(requests.adapters.BaseAdapter):
    """requests → Django's test client → a real ``requests.Response``."""

    def __init__(self) -> None:
        super().__init__()
        self.client = Client()

    def send(self, request, **kwargs):
        url = urlsplit(request.url)
        path = url.path + (f"?{url.query}" if url.query else "")
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() not in ("content-length", "content-type", "host")}
        answer = self.client.generic(request.method, path, request.body or b"",
                                     content_type=request.headers.get("Content-Type", ""),
                                     headers=headers)
        resp = requests.Response()
        resp.status_code = answer.status_code
        resp._content = answer.content
        resp.headers.update(dict(answer.items()))
        resp.url, resp.request = request.url, request
        return resp

    def close(self) -> None:
        pass


def _bot(username: str, monkeypatch) -> dict:
    code = re.search(r"## A bot in Python.*?```python\n(.*?)```", DOC.read_text(), re.S)
    assert code, "docs/api.md has no Python bot"
    user = get_user_model().objects.get(username=username)
    token = ApiToken.objects.create(user=user, name="doc bot", scope=ApiToken.Scope.LOBBY)
    monkeypatch.setenv("PBW", "http://testserver")
    monkeypatch.setenv("PBW_TOKEN", token.key)
    namespace: dict = {"__name__": "docs_bot"}  # not __main__: its functions only
    exec(compile(code.group(1), str(DOC), "exec"), namespace)  # noqa: S102 - our own doc
    namespace["session"].mount("http://testserver", DjangoAdapter())
    return namespace


def test_the_documented_bot_plays_a_check_mode_phase(monkeypatch):
    from games.management.commands.run import seed_demo

    seed_demo(lambda *_: None)
    one, two = _bot("demo1", monkeypatch), _bot("demo2", monkeypatch)
    match = one["create_match"]("Doc bot table")
    two["call"]("POST", f"/api/matches/{match['id']}/join/")
    one["wait_for_players"](match["id"], match["min_players"], poll=0)
    one["call"]("POST", f"/api/matches/{match['id']}/start/")
    first = one["call"]("GET", f"/api/matches/{match['id']}/")["phase"]["id"]
    assert one["play"](match["id"], poll=0, max_phases=1) is None
    assert two["play"](match["id"], poll=0, max_phases=1) is None
    phases_close_due()
    after = one["call"]("GET", f"/api/matches/{match['id']}/")
    assert after["phase"]["id"] != first and after["phase"]["you_are_awaited"]
    with pytest.raises(one["Refused"], match="409"):
        one["call"]("POST", f"/api/matches/{match['id']}/start/")
