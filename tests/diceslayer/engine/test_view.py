"""player_view shape, the highlight helper, and diary sentences."""

from __future__ import annotations

import json

import pytest

import diceslayer.engine as engine
from diceslayer.engine.describe import EN, JA
from diceslayer.engine.state import Variant
from games.rules import Event

from .helpers import solo, versus


def test_player_view_of_the_mover_lists_legal_moves():
    s = solo([6, 6, 2, 2, 2, 1, 4], [5, 3])
    v = engine.player_view(s, 0)
    json.dumps(v)
    assert v["you"] == 0 and v["your_turn"] is True and v["variant"] == "solo"
    assert v["players"][0]["plate"] == [1, 2, 2, 2, 4, 6, 6]
    assert v["players"][0]["stock"] == [5, 3]
    assert v["legal"] == {"pick": [1, 2, 4, 6], "pick_opponent": [], "wild": [], "bomb": []}
    assert v["limits"] == {"game_over_at": 8} and v["bomb"] is None


def test_spectator_and_waiting_player_get_the_same_board_without_legal_moves():
    s = versus(Variant.VERSUS2, {"plate": [3, 3]}, {"plate": [1]}, bomb=None)
    spect = engine.player_view(s, None)
    other = engine.player_view(s, 1)
    assert spect["legal"] is None and other["legal"] is None
    assert spect["players"] == other["players"]
    assert spect["bomb"] == "neutral" and spect["limits"] == {"loss_at": 10}
    mover = engine.player_view(s, 0)
    assert mover["legal"]["pick_opponent"] == [1] and mover["legal"]["bomb"] == [3]
    assert mover["players"][1]["next_roll_in"] == 3


def test_view_of_a_finished_game_has_no_legal_moves():
    s = solo([1, 1, 2, 4, 4, 5, 6, 6, 6], [1, 3])
    s = engine.resolve(engine.submit(s, 0, {"pick": 6}).state, "v").state
    v = engine.player_view(s, 0)
    assert v["over"] and v["legal"] is None and not v["your_turn"]
    assert v["end_reason"] == "plate_full"


def test_scoring_picks_highlight_only_moves_that_remove_dice():
    s = solo([6, 6, 2, 2, 2, 1, 4, 3], [5, 3])
    hl = engine.scoring_picks(s, 0)
    assert hl[0] == {"order": {"pick": 4}, "face": 4, "from": "own", "pattern": "run",
                     "removes": [2, 2, 2, 6, 6], "points": 25, "clears": False}
    assert [h["face"] for h in hl] == [4]  # 3 would make 3-5-3: no pattern


def test_scoring_picks_include_wild_and_opponent_options():
    s = solo([2, 2], [3, 5], wild=1, variant=Variant.SOLO_WILD)
    hl = engine.scoring_picks(s, 0)
    assert hl[0]["order"] == {"wild": 4} and hl[0]["clears"] and hl[0]["points"] == 24
    v = versus(Variant.VERSUS1, {"plate": [1, 1], "stock": [2, 3]}, {"plate": [4]})
    hl = engine.scoring_picks(v, 0)
    assert hl == [{"order": {"pick": 4, "from": "opponent"}, "face": 4, "from": "opponent",
                   "pattern": "run", "removes": [1, 1], "points": 4, "clears": True}]


def test_hint_gives_an_order_and_a_reason():
    s = solo([6, 6, 2, 2, 2, 1, 4], [5, 3])
    h = engine.hint(s, 0)
    assert h["order"] == {"pick": 4}
    assert "25" in h["why"]
    assert engine.hint(versus(Variant.VERSUS2, {"plate": [1]}, {"plate": [2]}), 1) is None


def _sample_events():
    s = versus(Variant.VERSUS2, {"plate": [6, 6, 2, 2, 2, 1, 4], "stock": [5, 3]},
               {"plate": [3, 3]})
    yield from engine.resolve(engine.submit(s, 0, {"pick": 4}).state, "d").events
    s = versus(Variant.VERSUS2, {"plate": [3, 3, 5]}, {"plate": [1]})
    yield from engine.resolve(engine.submit(s, 0, {"bomb": 3}).state, "d").events


def test_every_event_kind_has_a_sentence_in_both_languages():
    assert set(EN) == set(JA)
    data = {"seat": 0, "to": 1, "faces": [1, 2], "reason": "roll_in", "total": 9,
            "totals": [9, 7], "face": 3, "source": "own", "dropped": 5, "stock": [3, 4, 5],
            "pattern": "run", "removed": [2, 6], "points": 4, "score": 40, "count": 1,
            "plate": 8, "limit": 8, "into": "field", "owner": 1, "field": 10, "winner": None,
            "scores": [3, 3], "wild": 1, "targets": [2, 6]}
    for kind in EN:
        for lang in ("en", "ja"):
            for viewer in (None, 0, 1):
                text = engine.describe(Event(kind, data), viewer, lang)
                assert text and "{" not in text, (kind, lang)


@pytest.mark.parametrize("viewer, who", [(0, "You"), (1, "Player 1"), (None, "Player 1")])
def test_describe_speaks_to_the_viewer(viewer, who):
    events = list(_sample_events())
    first = engine.describe(events[0], viewer)
    assert first.startswith(who)
    for e in events:
        assert engine.describe(e, viewer, "ja")
