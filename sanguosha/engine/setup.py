"""Match configuration (§2.2, §12.2, §15) and the opening state (§2.3)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from games.rules import ConfigField, InvalidConfig, T

from sanguosha.engine.data import CHARACTERS, LORD_CHARACTERS, deck_numbers, identity_counts
from sanguosha.engine.flow import handler, open_ask, start_turn
from sanguosha.engine.state import Ctx, State

JSON = dict[str, Any]

DEFAULT_DURATIONS = {"setup": 24, "play": 24, "response": 12, "window": 8}

CONFIG_FIELDS: tuple[ConfigField, ...] = (
    ConfigField("identity_variant", "choice", "printed", T("Identities per player count"),
                choices=(("printed", T("Printed table")), ("double_renegade", T("Two Renegades at 6 and 8")),
                         ("single_renegade_10", T("One Renegade at 10")))),
    ConfigField("deck", "choice", "standard_ex", T("Deck"),
                choices=(("standard_ex", T("108 cards (with EX)")), ("standard", T("104 cards")))),
    ConfigField("weapon_abilities", "choice", "all", T("Weapon abilities"),
                choices=(("all", T("All weapons")), ("basic", T("Only Crossbow and Green Steel Sword")))),
    ConfigField("rescue_mode", "choice", "pledge", T("Rescue asks"),
                choices=(("pledge", T("Everyone pledges at once")), ("sequential", T("One player at a time")))),
    ConfigField("negate_privacy", "choice", "holders", T("Negate windows await"),
                choices=(("holders", T("Negate holders only")), ("everyone", T("Everyone with a hand card")))),
    ConfigField("lord_extra_choices", "int", 2, T("Extra characters offered to the lord"), min=0, max=5),
    ConfigField("durations", "json", dict(DEFAULT_DURATIONS), T("Ask duration classes (hours)"),
                help=T("Hours for each kind of ask (the keys of the default below).")),
    ConfigField("roster", "json", None, T("Characters in play (null = all 25)")),
)


def config_schema() -> Sequence[ConfigField]:
    return CONFIG_FIELDS


def validate_config(config: Mapping[str, Any] | None) -> JSON:
    """Fill defaults and check every value (raises :class:`InvalidConfig`)."""
    config = dict(config or {})
    out: JSON = {}
    known = {f.key: f for f in CONFIG_FIELDS}
    for key in config:
        if key not in known:
            raise InvalidConfig(T("Unknown setting %(key)s.", key=repr(key)), field=key)
    for f in CONFIG_FIELDS:
        v = config.get(f.key, f.default)
        if f.type == "choice" and v not in [c[0] for c in f.choices]:
            raise InvalidConfig(T("%(setting)s must be one of %(choices)s.", setting=f.label,
                                  choices=[c[1] for c in f.choices]), field=f.key)
        if f.type == "int":
            if not isinstance(v, int) or isinstance(v, bool) or not (f.min or 0) <= v <= (f.max or 99):
                raise InvalidConfig(T("%(setting)s must be a whole number from %(min)s to %(max)s.",
                                      setting=f.label, min=f.min, max=f.max), field=f.key)
        out[f.key] = v
    d = out["durations"]
    if not isinstance(d, dict) or set(d) != set(DEFAULT_DURATIONS) or \
            not all(isinstance(x, (int, float)) and x > 0 for x in d.values()):
        raise InvalidConfig(T("The durations must give positive hours for setup, play, response "
                              "and window."),
                            field="durations")
    r = out["roster"]
    if r is not None:
        if not isinstance(r, list) or any(c not in CHARACTERS for c in r) or len(set(r)) != len(r):
            raise InvalidConfig(T("The roster must be a list of character ids."), field="roster")
        if not set(LORD_CHARACTERS) <= set(r):
            raise InvalidConfig(T("The roster must contain the three lord characters."),
                                field="roster")
    return out


def blank_seat(s: int, identity: str) -> JSON:
    return {"seat": s, "identity": identity, "character": None, "hp": 0, "max_hp": 0,
            "alive": True, "hand": [], "equip": {"weapon": None, "armor": None, "plus_horse": None,
                                                 "minus_horse": None}, "judg": []}


def base_state(config: JSON, seats: list[JSON], draw: list[int]) -> JSON:
    return {"config": config, "seats": seats, "draw": draw, "discard": [], "proc": [],
            "current": 0, "turn": 0, "turn_phase": "setup", "tc": {}, "stack": [],
            "ask": None, "ask_no": 0, "answers": {}, "rng": 0, "pending": [], "over": False,
            "winners": [], "end_reason": None, "offers": {}, "revealed": False, "virtual": {}}


def setup(config: Mapping[str, Any], seats: Sequence[int], seed: str) -> State:
    """Identities, the lord's character offer, the shuffled deck (§2.3); the first ask opens."""
    cfg = validate_config(config)
    n = len(seats)
    if not 2 <= n <= 10:
        raise InvalidConfig(T("Three Kingdoms Kill needs 2 to 10 players."), field="seats")
    rng = random.Random(f"sanguosha|{seed}|setup")
    lo, loy, reb, ren = identity_counts(n, cfg["identity_variant"])
    others = ["loyalist"] * loy + ["rebel"] * reb + ["renegade"] * ren
    rng.shuffle(others)
    ids = ["lord"] + others
    deck = deck_numbers(cfg["deck"])
    rng.shuffle(deck)
    roster = list(cfg["roster"] or CHARACTERS)
    if len(roster) < n:
        raise InvalidConfig(T("The roster needs at least %(count)s characters for %(count)s players.",
                              count=n),
                            field="roster")
    rest = [c for c in roster if c not in LORD_CHARACTERS]
    rng.shuffle(rest)
    offer = list(LORD_CHARACTERS) + rest[:cfg["lord_extra_choices"]]
    rng.shuffle(offer)
    st = base_state(cfg, [blank_seat(s, ids[s]) for s in range(n)], deck)
    st["offers"] = {"0": offer}
    st["roster"] = roster
    st["stack"] = [{"t": "setup", "step": "lord"}]
    ctx = Ctx(st, seed)
    from sanguosha.engine.flow import run
    run(ctx)
    return ctx.freeze()


def apply_character(ctx: Ctx, s: int, ch: str) -> None:
    p = ctx.seat(s)
    p["character"] = ch
    p["max_hp"] = CHARACTERS[ch].max_hp
    if p["identity"] == "lord" and ctx.n >= 5:
        p["max_hp"] += 1
    p["hp"] = p["max_hp"]


@handler("setup")
def h_setup(ctx: Ctx, f: JSON) -> None:
    st = ctx.st
    if f["step"] == "lord":
        if "ans" in f:
            ch = f.pop("ans")["0"]["character"]
            apply_character(ctx, 0, ch)
            ctx.emit("character", {"seat": 0, "character": ch})
            f["step"] = "others"
        else:
            for p in st["seats"]:
                if p["identity"] == "lord":
                    ctx.emit("identity", {"seat": p["seat"], "identity": "lord"})
                else:
                    ctx.emit("identity", {"seat": p["seat"], "identity": p["identity"]},
                             to=[p["seat"]])
            open_ask(ctx, "choose_character", [0], {0: {"offered": st["offers"]["0"]}},
                     {0: {"character": st["offers"]["0"][0]}}, {"seat": 0})
            return
    if f["step"] == "others":
        if ctx.n == 1:
            f["step"] = "deal"
        elif "ans" not in f:
            pool = [c for c in st["roster"] if c != st["seats"][0]["character"]]
            ctx.rng().shuffle(pool)
            k = max(1, min(3, len(pool) // (ctx.n - 1)))
            opts = {}
            for s in range(1, ctx.n):
                st["offers"][str(s)] = pool[(s - 1) * k:s * k]
                opts[s] = {"offered": st["offers"][str(s)]}
            open_ask(ctx, "choose_character", list(range(1, ctx.n)), opts,
                     {s: {"character": opts[s]["offered"][0]} for s in opts}, {"seat": None})
            return
        else:
            ans = f.pop("ans")
            for s in range(1, ctx.n):
                apply_character(ctx, s, ans[str(s)]["character"])
            ctx.emit("characters", {"characters": [p["character"] for p in st["seats"]]})
            f["step"] = "deal"
    st["revealed"] = True
    ctx.ret(f)
    for s in range(ctx.n):
        ctx.draw(s, 4, "deal")
    start_turn(ctx, 0)
