"""Fixtures of the Sanguosha web tests: tables of 4–10 players started through the
framework services, clients per seat, positions reached by pure bot play (one per ask
kind, found once per session) and loaded into a match, and a page-text helper.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Match, Phase, Seat
from games.services.matches import match_create, match_join, match_start
from sanguosha import engine
from sanguosha.forms import schedule_for
from sanguosha.services import match_load_state

PASSWORD = "pw-sanguosha-tests"
ASK_KINDS = ("choose_character", "play", "respond", "negate_window", "rescue", "discard",
             "invoke", "choose_card", "choose_option", "pick_revealed", "arrange", "distribute",
             "borrowed_sword", "optional_cost")


def make_player(name: str, **extra: Any):
    return get_user_model().objects.create_user(username=name, password=PASSWORD,
                                                email=f"{name}@example.com", **extra)


def new_table(players: int = 4, *, config: dict | None = None, seed: str = "web-1",
              start: bool = True, bots: bool = False, prefix: str = "p") -> Match:
    """A Sanguosha match with ``players`` users seated (started unless ``start=False``);
    the match seed is fixed so seat numbers and deals repeat."""
    cfg = engine.validate_config(config or {})
    match = match_create(game="sanguosha", name=f"table {seed}", config=cfg,
                         min_players=4, max_players=10, schedule=schedule_for(cfg),
                         bots_enabled=bots)
    Match.objects.filter(pk=match.pk).update(seed=seed)
    for i in range(players):
        match_join(match=match, user=make_player(f"{prefix}{i}-{seed}"[:150]),
                   invite_code=match.invite_code)
    match.refresh_from_db()
    if start:
        match_start(match=match)
        match.refresh_from_db()
    return match


def seat_user(match: Match, number: int):
    return Seat.objects.select_related("user").get(match=match, number=number).user


def client_for(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def seat_client(match: Match, number: int) -> Client:
    return client_for(seat_user(match, number))


def table_url(match: Match) -> str:
    return reverse("sanguosha:table", args=[match.pk])


def answer_url(match: Match) -> str:
    return reverse("sanguosha:answer", args=[match.pk])


def open_phase(match: Match) -> Phase | None:
    return Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()


def post_answer(client: Client, match: Match, pick: dict | str | None, **extra: Any):
    """POST an answer as the page's form would (``pick`` = a button's value)."""
    phase = open_phase(match)
    state = engine.load(Match.objects.get(pk=match.pk).state)
    data: dict[str, Any] = {"phase_id": phase.pk if phase else "",
                            "ask": state.raw["ask"]["no"] if state.raw["ask"] else ""}
    if pick is not None:
        data["pick"] = pick if isinstance(pick, str) else json.dumps(pick)
    data.update(extra)
    return client.post(answer_url(match), data)


def page_text(resp) -> str:
    html = resp.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    import html as _html

    return _html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def button_values(resp) -> list[dict]:
    """The JSON value of every ``pick`` button on the page."""
    import html as _html

    vals = re.findall(r'name="pick" value="([^"]*)"', resp.content.decode())
    return [json.loads(_html.unescape(v)) for v in vals]


def awaited_seats(match: Match) -> list[int]:
    match.refresh_from_db()
    return engine.awaiting(engine.load(match.state))


_POSITIONS: dict[str, Any] = {}


def _awaited_has_kill(state: Any) -> bool:
    """The first awaited seat can play a Kill at somebody."""
    ask = state.raw["ask"]
    return any(a.get("as") == "slash" and "use" in a and a.get("targets")
               for a in ask["options"][str(ask["awaited"][0])].get("actions", []))


def _rescue_stays_open_after_one_pass(state: Any) -> bool:
    """More than one seat is asked for a Peach (one passing leaves the ask open)."""
    ask = state.raw["ask"]
    return len(ask["awaited"]) > 1


#: what a test needs of a position besides its ask kind (built by the search below, so a
#: test never skips for want of a card)
NEEDS = {"kill": _awaited_has_kill, "open_after_pass": _rescue_stays_open_after_one_pass}


def position_with(kind: str, players: int = 5, need: str | None = None) -> Any:
    """A state (pure bot play) whose open ask is ``kind`` (and that has what ``need``
    names, :data:`NEEDS`); searched once per session."""
    key = f"{kind}/{players}/{need}"
    wanted = NEEDS[need] if need is not None else (lambda state: True)
    if key in _POSITIONS:
        return _POSITIONS[key]
    for g in range(200):
        roster = None
        if kind == "arrange":
            roster = ["caocao", "liubei", "sunquan", "zhugeliang"] + (
                ["lvbu", "xuchu", "ganning", "huanggai", "zhangfei", "guanyu"])
        elif kind == "distribute":
            roster = ["caocao", "liubei", "sunquan", "guojia", "lvbu", "xuchu", "ganning",
                      "huanggai", "zhangfei", "guanyu"]
        elif kind == "choose_option":
            roster = ["caocao", "liubei", "sunquan", "zhouyu", "lvbu", "xuchu", "ganning",
                      "huanggai", "zhangfei", "guanyu"]
        cfg = {"roster": roster} if roster else {}
        state = engine.setup(cfg, list(range(players)), f"pos-{kind}-{g}")
        for step in range(3000):
            ask = state.raw["ask"]
            if state.raw["over"] or ask is None:
                break
            if ask["kind"] == kind and (kind != "rescue" or any(
                    ask["options"][str(s)]["cards"] for s in ask["awaited"])) and wanted(state):
                _POSITIONS[key] = state
                return state
            for s in engine.awaiting(state):
                order = engine.bot_orders(state, s, f"{g}:{step}:{s}")[0]
                state = engine.submit(state, s, order).state
                if not engine.awaiting(state):
                    break
            state = engine.resolve(state, f"pos-{g}-{step}").state
    raise AssertionError(f"no position with a {kind} ask ({need or 'any'}) found")


def table_at(kind: str, players: int = 5, need: str | None = None, **kw: Any) -> Match:
    """A started match whose state is a position with a ``kind`` ask open (and ``need``)."""
    match = new_table(players, seed=f"at-{kind}-{players}", **kw)
    match_load_state(match=match, state=position_with(kind, players, need))
    match.refresh_from_db()
    return match
