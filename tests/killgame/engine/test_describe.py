"""Every event kind the engine emits has an English and an Italian sentence."""

from __future__ import annotations

import random

from games.rules import Event
from killgame import engine
from killgame.engine.describe import TEXT

from .randomplay import play_phase


def _events():
    out = []
    for seed, mode in (("d1", "ffa"), ("d2", "districts"), ("d3", "teams")):
        rng = random.Random(seed)
        s = engine.setup({"mode": mode, "monster_count": 4, "min_players": 4}, list(range(8)),
                         seed)
        while not s.over and s.turn < 30:
            s, _ = play_phase(s, rng)
            for p in s.players:
                if p.alive and s.phase == "tactical" and s.turn > 1 and s.market:
                    try:
                        out.extend(engine.submit(s, p.seat, {"type": "buy",
                                                             "item": "k_ration"}).events)
                    except engine.errors.KillGameOrderError:
                        pass
            res = engine.resolve(s, seed)
            out.extend(res.events)
            s = res.state
    return out


def test_every_emitted_kind_is_described_in_both_languages():
    events = _events()
    kinds = {e.kind for e in events}
    assert {"attack", "roster", "approval", "zone_closed", "match_over"} <= kinds
    assert kinds <= set(TEXT), kinds - set(TEXT)
    for e in events:
        viewers = [None] if e.visible_to is None else sorted(e.visible_to)
        for v in viewers:
            en = engine.describe(e, v, "en")
            it = engine.describe(e, v, "it")
            assert en and it and en != e.kind and it != e.kind


def test_describe_speaks_to_the_viewer():
    ev = Event("attack", {"attacker": "p1", "victim": "p2", "weapon": "shotgun",
                          "zone": "paese", "amount": 6}, frozenset({1, 2}))
    assert engine.describe(ev, 1) == "In Paese you attacked player p2 with the shotgun for 6."
    assert engine.describe(ev, 2, "it") == \
        "A Paese il giocatore p1 ti ha attaccato con fucile a pompa per 6."
    assert engine.describe(ev, 1, "it") == \
        "A Paese hai attaccato il giocatore p2 con fucile a pompa per 6."
    assert engine.describe(ev, 3, "it") == \
        "A Paese il giocatore p1 ha attaccato il giocatore p2 con fucile a pompa per 6."
    heal = Event("healed", {"healer": "p1", "target": "p1", "amount": 6})
    assert engine.describe(heal, 1) == "You used a medkit: +6 energy."
    assert engine.describe(heal, 1, "it") == "Hai usato un medikit: +6 energia."
    smoke = Event("attack", {"smoked": True, "zone": "paese", "victim": "p2", "amount": 3})
    assert "unknown source" in engine.describe(smoke, 2)
    assert "p1" not in engine.describe(smoke, 2)
