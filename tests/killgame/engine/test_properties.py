"""Property tests: random matches with random legal orders keep the invariants, never leak
hidden information through player_view, round-trip through dump/load and replay exactly."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from killgame import engine
from killgame.engine.errors import KillGameOrderError

from .randomplay import play_phase

PUBLIC_PLAYER_KEYS = {"id", "seat", "alive", "teammate"}

configs = st.fixed_dictionaries({
    "mode": st.sampled_from(["ffa", "teams", "districts"]),
    "map": st.sampled_from(["classic", "inferno"]),
    "monster_count": st.integers(0, 4),
    "k_rations_enabled": st.booleans(),
    "check_enabled": st.booleans(),
    "budget": st.sampled_from([0, 300, 1000]),
})


def _walk(obj: Any, path: str = ""):
    if isinstance(obj, dict):
        yield path, obj
        for k, v in obj.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")


def check_view(state, seat) -> None:
    view = engine.player_view(state, seat)
    json.dumps(view)
    me = state.player_by_seat(seat) if seat is not None else None
    if state.over:
        return
    if me is None or not me.alive:
        assert "zone" not in view and "omniscient" not in view
        assert view["me"] is None or set(view["me"]) == {"id", "seat", "alive", "died_turn"}
    others = {p.pid: p for p in state.players if me is None or p.pid != me.pid}
    smoked_now = (state.smoke if state.phase == "action" else state.last_smoked)
    for path, d in _walk({k: v for k, v in view.items() if k != "me"}):
        pid = d.get("id")
        if pid in others:
            assert set(d) <= PUBLIC_PLAYER_KEYS, (path, d)
            q = others[pid]
            if path.startswith(".zone"):
                assert me is not None and q.alive and q.zone == me.zone
                assert me.zone not in smoked_now
        if "orders" in d or "energy" in d or "items" in d:
            raise AssertionError(f"private field outside 'me' at {path}")
    mons = {m.mid: m for m in state.monsters}
    text = json.dumps({k: v for k, v in view.items() if k != "me"})
    for mid, m in mons.items():
        if f'"{mid}"' in text:
            assert me is not None and m.alive and m.zone == me.zone
    if me is not None and me.alive:
        assert view["me"]["energy"] == me.energy
        zv = view.get("zone")
        if zv is not None and not zv["smoked"]:
            assert {q["id"] for q in zv["players"]} == {
                q.pid for q in state.players if q.alive and q.zone == me.zone and q is not me}


SELF_KINDS = {"order_voided", "backpack", "start_zone", "antidote", "smoke_thrown",
              "gas_thrown", "moved", "expelled", "closed_zone_penalty", "partner_revealed",
              "roster", "worn", "shout_result", "explosion_result", "gas_damage", "monster_hit",
              "poison_tick", "ration", "starvation", "approval", "reward", "punishment",
              "persuasion", "heard_gunfire", "heard_explosion", "heard_monster", "you_died"}
PUBLIC_KINDS = {"shout", "deaths", "zone_closed", "action_opened", "tactical_opened",
                "match_over"}


def check_audiences(state, events) -> None:
    """§18: private events reach their player only, amounts only attacker and victim."""
    seat_of = {p.pid: p.seat for p in state.players}
    for e in events:
        if e.kind in SELF_KINDS:
            assert e.visible_to == {seat_of[e.data["player"]]}, e
        elif e.kind in PUBLIC_KINDS:
            assert e.visible_to is None, e
        elif e.kind == "attack" and not e.data.get("smoked"):
            if e.data["amount"] is not None:
                allowed = {seat_of.get(e.data["attacker"]), seat_of.get(e.data["victim"])}
                assert e.visible_to <= allowed, e
            else:
                assert not e.visible_to & {seat_of.get(e.data["attacker"]),
                                           seat_of.get(e.data["victim"])}
        elif e.kind == "attack":
            assert len(e.visible_to) == 1
            assert "attacker" not in e.data or "victim" not in e.data
        elif e.kind == "healed":
            assert e.visible_to == {seat_of[e.data["healer"]], seat_of[e.data["target"]]}
        else:
            assert e.visible_to is not None, e


def check_invariants(state, events) -> None:
    check_audiences(state, events)
    cap = state.config["explosives_cap_per_zone"]
    maxe = state.config["max_energy"]
    for p in state.players:
        if p.alive:
            assert 1 <= p.energy <= maxe
        else:
            assert p.energy == 0 and not p.items and p.orders == () and p.zone is None
            try:
                engine.validate_order(state, p.seat, {"type": "shout"})
            except KillGameOrderError as exc:
                assert exc.code in ("PLAYER_DEAD", "MATCH_NOT_RUNNING")
            else:
                raise AssertionError("dead player acted")
    zones = [m.zone for m in state.monsters if m.alive]
    assert len(zones) == len(set(zones))
    effective: dict[str, int] = {}
    for e in events:
        if e.kind == "explosion_result" and e.data["effective"]:
            effective[e.data["zone"]] = effective.get(e.data["zone"], 0) + 1
        if e.kind == "explosion":
            assert set(e.visible_to or ()) <= {p.seat for p in state.players}
    assert all(n <= cap for n in effective.values())


def _cfg(cfg: dict, n: int) -> dict:
    low = 4 if cfg["mode"] == "teams" else 2
    return dict(cfg, min_players=low, max_players=max(low, n))


def play_match(n: int, cfg: dict, seed: str, rng_seed: int, phases: int):
    rng = random.Random(rng_seed)
    cfg = _cfg(cfg, n)
    state = engine.setup(cfg, list(range(n)), seed)
    log = []
    for _ in range(phases):
        if state.over:
            break
        state, accepted = play_phase(state, rng)
        for s in [None, *range(n)]:
            check_view(state, s)
        res = engine.resolve(state, seed)
        log.append((accepted, res.events))
        state = res.state
        check_invariants(state, res.events)
        assert engine.load(json.loads(json.dumps(engine.dump(state)))) == state
    return state, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), cfg=configs, seed=st.text(min_size=1, max_size=8),
       rng_seed=st.integers(0, 10**6))
def test_random_matches_keep_invariants_and_hide_information(n, cfg, seed, rng_seed):
    play_match(n, cfg, seed, rng_seed, phases=24)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 7), cfg=configs, seed=st.text(min_size=1, max_size=8),
       rng_seed=st.integers(0, 10**6))
def test_replay_of_seed_and_orders_is_identical(n, cfg, seed, rng_seed):
    final, log = play_match(n, cfg, seed, rng_seed, phases=16)
    state = engine.setup(_cfg(cfg, n), list(range(n)), seed)
    for accepted, events in log:
        for s, o in accepted:
            state = engine.submit(state, s, o).state
        res = engine.resolve(state, seed)
        assert res.events == events
        state = res.state
    assert state == final
    assert engine.dump(state) == engine.dump(final)


def test_dump_load_round_trip_of_a_fresh_match():
    s = engine.setup({"mode": "districts"}, [3, 1, 2], "rt")
    assert engine.load(engine.dump(s)) == s
