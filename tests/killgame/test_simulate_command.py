"""``manage.py killgame_simulate`` prints the simulation summary as JSON."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_killgame_simulate_prints_json():
    out = StringIO()
    call_command("killgame_simulate", "--players", "8", "--map", "inferno", "--mode",
                 "districts", "--monsters", "1", "--seed", "7", "--json", stdout=out)
    summary = json.loads(out.getvalue())
    assert summary["players"] == 8 and summary["map"] == "inferno"
    assert summary["mode"] == "districts" and summary["winners"]
    assert set(summary) >= {"turns", "deaths_by_cause", "damage_by_source", "rewards",
                            "punishments"}


def test_killgame_simulate_refuses_bad_player_counts():
    with pytest.raises(CommandError):
        call_command("killgame_simulate", "--players", "1", stdout=StringIO())
