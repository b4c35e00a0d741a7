"""The bot answers every ask legally; simulate reports whole games; the command wraps it."""

from __future__ import annotations

import json

import pytest

from sanguosha import engine
from sanguosha.engine.simulate import play_game, simulate


def test_simulate_reports_wins_lengths_and_no_violations():
    rep = simulate(players=5, games=4, seed=7)
    assert rep["games"] == 4 and rep["violation_count"] == 0 and rep["unfinished"] == 0
    assert sum(rep["wins"].values()) + rep["draws"] == 4
    assert rep["mean_asks"] > 0 and rep["mean_turns"] > 0
    json.dumps(rep)


def test_bot_orders_are_always_accepted_and_decided_from_the_view():
    r = play_game(8, "bot-check")
    assert r["over"] and not r["violations"]


def test_bot_orders_empty_for_a_seat_not_awaited():
    st = engine.setup({}, list(range(4)), "x")
    assert engine.bot_orders(st, 2, "s") == []
    assert engine.validate_order(st, 0, engine.bot_orders(st, 0, "s")[0]) is None


def test_management_command_json():
    django = pytest.importorskip("django")
    from django.conf import settings
    if not settings.configured:
        pytest.skip("Django settings are not configured (-p no:django)")
    from io import StringIO

    from django.core.management import call_command
    out = StringIO()
    call_command("sanguosha_simulate", "--players", "4", "--games", "2", "--seed", "3", "--json",
                 stdout=out)
    rep = json.loads(out.getvalue())
    assert rep["games"] == 2 and rep["players"] == 4
    del django


def test_app_registers_the_engine():
    pytest.importorskip("django")
    from django.conf import settings
    if not settings.configured:
        pytest.skip("Django settings are not configured (-p no:django)")
    from django.apps import apps

    from games.registry import get_rules, register
    assert apps.is_installed("sanguosha")
    register(engine)
    assert get_rules("sanguosha") is engine
