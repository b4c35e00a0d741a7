"""Feed and diary read as sentences: a two-shot weapon's attack is one line "(×2)", not the
same sentence twice; other lines are left alone; plurals are words, not "(s)"."""

from __future__ import annotations

from types import SimpleNamespace

from games.rules import Event
from killgame.engine.describe import describe
from killgame.templatetags.killgame_tags import diary_parts


def _row(seq, text, kind="attack", public=True):
    return SimpleNamespace(text=text, is_public=public, kind=kind, seq=seq,
                           phase_kind="action")


def test_a_two_shot_attack_is_one_line():
    line = "In Ceppo ann attacked bob with the machine gun."
    rows = [_row(1, line), _row(2, line), _row(3, "Ceppo is now closed.", kind="zone_closed"),
            _row(4, "In Ceppo ann attacked cat with the machine gun.")]
    parts = diary_parts([(2, rows)], {})
    texts = [r["text"] for r in parts["turns"][0]["phases"][0]["rows"]]
    assert texts == ["In Ceppo ann attacked bob with the machine gun (×2).",
                     "Ceppo is now closed.", "In Ceppo ann attacked cat with the machine gun."]
    assert [r["text"] for r in parts["feed"]][-1] == \
        "In Ceppo ann attacked bob with the machine gun (×2)."


def test_heard_counts_are_words():
    one = describe(Event("heard_gunfire", {"shots": 1, "zone": "ceppo"}, frozenset({0})), 0)
    two = describe(Event("heard_gunfire", {"shots": 2, "zone": "ceppo"}, frozenset({0})), 0)
    assert "1 shot " in one and "2 shots " in two and "(s)" not in one + two
