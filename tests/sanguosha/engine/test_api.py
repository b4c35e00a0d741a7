"""The RulesEngine surface: setup (E1), phases, submit/resolve, defaults, stale orders, dump/load."""

from __future__ import annotations

import pytest

from games.rules import IllegalOrder, InvalidConfig, InvalidOrder
from sanguosha import engine
from sanguosha.engine.data import LORD_CHARACTERS
from sanguosha.engine.state import Ctx
from tests.sanguosha.engine.helpers import answer, position, seat


def _choose(state, picks=None):
    picks = picks or {}
    state = answer(state, 0, {"character": picks.get(0, "liubei")})
    for s in engine.awaiting(state):
        offered = state.raw["offers"][str(s)]
        state = engine.submit(state, s, {"character": picks.get(s, offered[0])}).state
    return engine.resolve(state, "go").state


def test_module_constants():
    assert engine.SLUG == "sanguosha" and engine.NAME == "Three Kingdoms Kill"
    assert (engine.MIN_SEATS, engine.MAX_SEATS) == (2, 10)


def test_e1_setup_five_players_lord_bonus():
    s = engine.setup({}, list(range(5)), "e1")
    ph = engine.current_phase(s)
    assert ph.kind == "ask:choose_character" and ph.awaited == frozenset({0})
    assert ph.timing == "setup"
    offer = s.raw["offers"]["0"]
    assert set(LORD_CHARACTERS) <= set(offer) and len(offer) == 5
    ids = sorted(p["identity"] for p in s.raw["seats"])
    assert ids == ["lord", "loyalist", "rebel", "rebel", "renegade"]
    assert s.raw["seats"][0]["identity"] == "lord"
    s = answer(s, 0, {"character": "liubei"})
    assert engine.current_phase(s).awaited == frozenset({1, 2, 3, 4})
    for k in range(1, 5):
        assert len(s.raw["offers"][str(k)]) == 3 and "liubei" not in s.raw["offers"][str(k)]
    s = _choose(engine.setup({}, list(range(5)), "e1"))
    lord = s.raw["seats"][0]
    assert (lord["character"], lord["hp"], lord["max_hp"]) == ("liubei", 5, 5)
    assert all(len(p["hand"]) in (4, 6) for p in s.raw["seats"])
    assert s.raw["current"] == 0 and engine.current_phase(s).kind == "ask:play"
    assert len(lord["hand"]) == 6  # 4 dealt + 2 drawn in the lord's first Draw phase


def test_e1_four_players_no_bonus():
    s = _choose(engine.setup({}, list(range(4)), "e1b"))
    assert (s.raw["seats"][0]["hp"], s.raw["seats"][0]["max_hp"]) == (4, 4)


def test_ten_players_get_two_offers_each():
    s = engine.setup({}, list(range(10)), "ten")
    s = answer(s, 0, {"character": s.raw["offers"]["0"][0]})
    assert all(len(s.raw["offers"][str(k)]) == 2 for k in range(1, 10))
    chars = [c for k in range(1, 10) for c in s.raw["offers"][str(k)]]
    assert len(set(chars)) == len(chars)


def test_non_lord_with_lord_character_has_no_lord_skill():
    s = engine.setup({}, list(range(5)), "e1c")
    s = answer(s, 0, {"character": "sunquan"})
    for k in engine.awaiting(s):
        s = engine.submit(s, k, {"character": s.raw["offers"][str(k)][0]}).state
    s = engine.resolve(s, "x").state
    ctx = Ctx(s)
    ctx.st["seats"][1]["character"] = "caocao"
    assert not ctx.has(1, "hujia") and ctx.has(1, "jianxiong")
    assert ctx.has(0, "jiuyuan")


def test_setup_is_deterministic_from_the_seed():
    assert engine.setup({}, list(range(6)), "a") == engine.setup({}, list(range(6)), "a")
    assert engine.setup({}, list(range(6)), "a") != engine.setup({}, list(range(6)), "b")


def test_config_validation_and_variants():
    cfg = engine.validate_config({})
    assert cfg["deck"] == "standard_ex" and cfg["rescue_mode"] == "pledge"
    assert cfg["durations"] == {"setup": 24, "play": 24, "response": 12, "window": 8}
    with pytest.raises(InvalidConfig):
        engine.validate_config({"deck": "huge"})
    with pytest.raises(InvalidConfig):
        engine.validate_config({"nope": 1})
    with pytest.raises(InvalidConfig):
        engine.validate_config({"roster": ["guanyu"]})
    s = engine.setup({"identity_variant": "double_renegade"}, list(range(8)), "v")
    assert sum(p["identity"] == "renegade" for p in s.raw["seats"]) == 2
    s = engine.setup({"deck": "standard"}, list(range(4)), "d")
    assert len(s.raw["draw"]) == 104
    keys = {f.key for f in engine.config_schema()}
    assert {"identity_variant", "deck", "weapon_abilities", "rescue_mode", "negate_privacy",
            "durations"} <= keys


def test_e2_distances():
    st = position([seat("lord")] + [seat("rebel") for _ in range(5)])
    ctx = Ctx(st)
    assert [ctx.distance(0, t) for t in range(1, 6)] == [1, 2, 3, 2, 1]
    ctx.st["seats"][3]["equip"]["plus_horse"] = 103
    assert ctx.distance(0, 3) == 4 and ctx.distance(3, 0) == 3
    ctx.st["seats"][0]["equip"]["minus_horse"] = 106
    assert (ctx.distance(0, 3), ctx.distance(0, 2), ctx.distance(0, 4)) == (3, 1, 1)
    ctx2 = Ctx(st)
    ctx2.st["seats"][1]["alive"] = False
    assert [ctx2.distance(0, t) for t in range(2, 6)] == [1, 2, 2, 1]
    ctx3 = Ctx(st)
    ctx3.st["seats"][0]["character"] = "machao"
    ctx3.st["seats"][0]["equip"]["minus_horse"] = 106
    assert ctx3.distance(0, 2) == 1


def test_play_phase_spec():
    st = position([seat("lord", hand=[1]), seat("rebel")])
    ph = engine.current_phase(st)
    assert ph.kind == "ask:play" and ph.awaited == frozenset({0}) and ph.timing == "play"
    assert ph.close_when_all_checked_in and ph.default_text


def test_refused_orders_change_nothing():
    st = position([seat("lord", hand=[1]), seat("rebel")])
    with pytest.raises(IllegalOrder):
        engine.submit(st, 1, {"end": True})
    with pytest.raises(InvalidOrder):
        engine.submit(st, 0, {"use": "x"})
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"use": 2, "targets": [1]})
    with pytest.raises(InvalidOrder):
        engine.validate_order(st, 0, {"dance": True})
    assert engine.validate_order(st, 0, {"use": 1, "targets": [1]}) is None


def test_stale_order_is_refused():
    st = position([seat("lord", hand=[1]), seat("rebel", hand=[34])])
    no = st.raw["ask"]["no"]
    st2 = answer(st, 0, {"use": 1, "targets": [1], "ask": no})
    with pytest.raises(IllegalOrder) as err:
        engine.submit(st2, 1, {"card": 34, "ask": no})
    assert err.value.code == "STALE"
    engine.submit(st2, 1, {"card": 34, "ask": st2.raw["ask"]["no"]})


def test_default_orders_and_timeout_give_the_same_result():
    st = position([seat("lord", hp=2, hand=[1, 34, 46, 65, 63]), seat("rebel")])
    st = answer(st, 0, {"end": True})
    assert st.raw["ask"]["kind"] == "discard"
    via_timeout = engine.resolve(st, "s")
    d = engine.default_orders(st, 0)
    assert d == [{"cards": [46, 65, 63]}]
    via_default = engine.resolve(engine.submit(st, 0, d[0]).state, "s")
    assert via_timeout.state == via_default.state
    assert engine.default_orders(st, 1) == []


def test_dump_load_roundtrip():
    st = position([seat("lord", hand=[1]), seat("rebel", hand=[34])])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    assert engine.load(engine.dump(st)) == st
    import json
    assert engine.load(json.loads(json.dumps(engine.dump(st)))) == st


def test_negate_window_awaits_holders_and_closes_on_first_negate():
    st = position([seat("lord", hand=[54]), seat("rebel", hand=[74, 11]), seat("loyalist", hand=[75]),
                   seat("renegade", hand=[12])])
    st = answer(st, 0, {"use": 54, "targets": [1]})
    ph = engine.current_phase(st)
    assert ph.kind == "ask:negate_window" and ph.awaited == frozenset({1, 2}) and ph.timing == "window"
    view = engine.player_view(st, 3)
    assert view["ask"]["awaited"] is None and view["legal"] is None
    st2 = engine.submit(st, 2, {"negate": 75}).state
    assert engine.current_phase(st2).awaited == frozenset({2}) and engine.awaiting(st2) == []
    with pytest.raises(IllegalOrder):
        engine.submit(st2, 1, {"negate": 74})


def test_negate_ties_go_to_action_order_from_current():
    st = position([seat("lord", hand=[54, 76]), seat("rebel", hand=[74, 11]),
                   seat("loyalist", hand=[75])], current=0)
    st = answer(st, 0, {"use": 54, "targets": [1]})
    st = engine.submit(st, 2, {"pass": True}).state
    st = engine.submit(st, 1, {"pass": True}).state
    st = engine.submit(st, 0, {"negate": 76}).state
    st = engine.resolve(st, "x").state
    assert 76 in st.raw["proc"]


def test_outcome():
    st = position([seat("lord", hand=[1]), seat("rebel", hp=1)])
    assert engine.outcome(st) is None
    st = answer(st, 0, {"use": 1, "targets": [1]})
    out = engine.outcome(st)
    assert out is not None and out.winners == frozenset({0})
    assert engine.current_phase(st) is None


def test_describe_in_both_languages():
    st = position([seat("lord", hand=[1]), seat("rebel", hand=[34])])
    st2 = engine.submit(st, 0, {"use": 1, "targets": [1]}).state
    res = engine.resolve(st2, "x")
    texts = [engine.describe(e, 0, "en") for e in res.events]
    zh = [engine.describe(e, 0, "zh") for e in res.events]
    assert any(t.startswith("You use Kill") for t in texts)  # the verb agrees with "you"
    assert any("uses Kill" in engine.describe(e, 1, "en") for e in res.events)
    assert any("杀" in t for t in zh)


def test_describe_names_players_and_puts_asks_into_words():
    names = {0: "demo1", 1: "demo2"}
    st = position([seat("lord", hand=[1]), seat("rebel", hand=[34])])
    res = engine.resolve(engine.submit(st, 0, {"use": 1, "targets": [1]}).state, "x")
    res = engine.resolve(engine.submit(res.state, 1, {"card": 34}).state, "x")
    for viewer in (0, 1, None):
        texts = [engine.describe(e, viewer, "en", names) for e in res.events]
        assert not any("seat" in t.lower() or "ask" in t.lower() for t in texts), texts
    to_target = [engine.describe(e, 1, "en", names) for e in res.events]
    assert "demo1's Kill on you: Dodge? — answered." in to_target
    assert "You play Dodge ♦2." in to_target
    assert "demo2 dodges the Kill." in [engine.describe(e, None, "en", names) for e in res.events]
    assert "demo1的杀指向你：出闪吗？" in engine.describe(res.events[0], 1, "zh", names)


def test_describe_covers_every_event_of_random_games():
    from sanguosha.engine.describe import _EN, _ZH
    from sanguosha.engine.simulate import play_game
    kinds = set()
    for seed in ("d1", "d2", "d3"):
        st = engine.setup({}, list(range(6)), seed)
        n = 0
        while not st.raw["over"] and n < 3000:
            for s in engine.awaiting(st):
                st = engine.submit(st, s, engine.bot_orders(st, s, f"{seed}{n}")[0]).state
                if not engine.awaiting(st):
                    break
            res = engine.resolve(st, f"{seed}{n}")
            st = res.state
            for e in res.events:
                kinds.add(e.kind)
                viewer = next(iter(e.visible_to)) if e.visible_to else None
                for lang in ("en", "zh"):
                    text = engine.describe(e, viewer, lang)
                    assert text and not text.startswith(f"{e.kind}:")
            n += 1
    assert kinds <= set(_EN) == set(_ZH)
    del play_game


def test_every_emitted_event_kind_has_sentences():
    import re
    from pathlib import Path

    from sanguosha.engine.describe import _EN, _ZH
    root = Path(engine.__file__).parent
    kinds = set()
    for p in root.rglob("*.py"):
        kinds |= set(re.findall(r'emit\("([a-z_]+)"', p.read_text()))
    assert kinds and kinds <= set(_EN) and kinds <= set(_ZH)


def test_roster_must_cover_the_players():
    roster = ["caocao", "liubei", "sunquan", "guanyu"]
    with pytest.raises(InvalidConfig):
        engine.setup({"roster": roster}, list(range(5)), "r")
    s = engine.setup({"roster": roster + ["zhaoyun", "lvbu"], "lord_extra_choices": 2},
                     list(range(5)), "r")
    s = answer(s, 0, {"character": "caocao"})
    assert all(len(s.raw["offers"][str(k)]) == 1 for k in range(1, 5))


def test_omniscient_view_shows_everything():
    st = engine.setup({}, list(range(4)), "omni")
    v = engine.omniscient_view(st)
    assert len(v["draw_pile"]) == 108 and all(p["identity"] for p in v["seats"])
    assert v["stack"] and v["ask_full"]["kind"] == "choose_character"


def test_engine_exposes_every_rules_engine_function():
    from games.rules import RulesEngine
    names = [n for n in dir(RulesEngine) if not n.startswith("_")]
    for n in names:
        assert hasattr(engine, n), n
    st = engine.setup(engine.validate_config({}), list(range(3)), "proto")
    assert engine.validate_config(engine.validate_config({})) == engine.validate_config({})
    assert isinstance(engine.player_view(st, None), dict)
