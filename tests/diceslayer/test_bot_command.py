"""The ``diceslayer_bot`` management command prints the bot's self-play summary."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from diceslayer.management.commands.diceslayer_bot import Command


def test_bot_command_prints_json_summary():
    out = io.StringIO()
    call_command(Command(), "--games", "3", "--seed", "1", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["games"] == 3 and report["variant"] == "solo"
    assert report["min_score"] <= report["median_score"] <= report["max_score"]
    assert 0 < report["slowest_decision_ms"] < 1000
    assert 0 <= report["slowest_decision_cpu_ms"] <= 50  # the bot's budget, in CPU time
    assert report["decisions"] >= 3


def test_bot_command_is_deterministic_in_its_scores():
    a, b = io.StringIO(), io.StringIO()
    call_command(Command(), "--games", "2", "--seed", "7", "--json", stdout=a)
    call_command(Command(), "--games", "2", "--seed", "7", "--json", stdout=b)
    ra, rb = json.loads(a.getvalue()), json.loads(b.getvalue())
    assert (ra["mean_score"], ra["median_score"]) == (rb["mean_score"], rb["median_score"])


def test_bot_command_plain_text_and_wild_variant():
    out = io.StringIO()
    call_command(Command(), "--games", "1", "--variant", "solo_wild", stdout=out)
    assert "1 solo_wild games: mean score" in out.getvalue()


def test_bot_command_refuses_zero_games():
    with pytest.raises(CommandError):
        call_command(Command(), "--games", "0", stdout=io.StringIO())
