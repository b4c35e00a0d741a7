"""A simple bot: answers any ask from its own player view (never from the raw state).

It plays plausibly — heals when hurt, equips into empty slots, attacks likely enemies,
negates harm aimed at itself, rescues friends — and always picks from the ``legal`` section,
so every order it makes is accepted.
"""

from __future__ import annotations

import random
from typing import Any

JSON = dict[str, Any]
HARMFUL = {"slash", "dismantlement", "snatch", "duel", "collateral", "indulgence",
           "savage_assault", "archery_attack", "lightning"}


def _enemies(view: JSON) -> list[int]:
    me = view["you"]
    mine = view["seats"][me]["identity"]
    out = []
    for p in view["seats"]:
        if p["seat"] == me or not p["alive"]:
            continue
        ident = p["identity"]
        if mine in ("lord", "loyalist"):
            if ident in ("lord", "loyalist"):
                continue
        elif mine == "rebel":
            if ident == "rebel":
                continue
        elif mine == "renegade":
            alive = sum(1 for q in view["seats"] if q["alive"])
            if ident == "lord" and alive > 2:
                continue
        out.append(p["seat"])
    if mine == "rebel":
        out.sort(key=lambda s: 0 if view["seats"][s]["identity"] == "lord" else 1)
    return out


def _friendly(view: JSON, s: int) -> bool:
    me = view["you"]
    if s == me:
        return True
    mine = view["seats"][me]["identity"]
    ident = view["seats"][s]["identity"]
    return bool(mine == "loyalist" and ident == "lord") or (mine == "lord" and ident == "loyalist") \
        or (mine == "rebel" and ident == "rebel")


def _play(view: JSON, opt: JSON, rng: random.Random) -> JSON:
    me = view["you"]
    seat = view["seats"][me]
    enemies = _enemies(view)
    cards = view["cards"]
    best: list[tuple[int, JSON]] = []
    for a in opt["actions"]:
        if a.get("end"):
            continue
        name = a.get("as")
        score = 0
        order: JSON
        if "skill" in a and "use" not in a and "use_pair" not in a:
            sk = a["skill"]
            if sk == "kurou" and seat["hp"] < 3:
                continue
            if sk == "rende" and len(seat.get("hand", [])) <= seat["hp"]:
                continue
            if sk in ("zhiheng",) and len(seat.get("hand", [])) < 2:
                continue
            n = a.get("min_cards", 0)
            cs = a.get("cards", [])[:max(n, 1 if a.get("max_cards") else 0)]
            if sk == "zhiheng":
                cs = [c for c in a["cards"] if cards.get(str(c), {}).get("id") not in ("peach",)][:2] or a["cards"][:1]
            ts = a.get("targets", [])
            k = a.get("min_targets", 0)
            if sk in ("fanjian", "lijian"):
                pref = [t for t in ts if t in enemies] + [t for t in ts if t not in enemies]
                ts = pref
                if sk == "lijian":
                    a0 = next(t for t in ts if t in a["first"])
                    ts = [a0] + [t for t in ts if t != a0]
            elif sk in ("qingnang", "jieyin", "rende"):
                ts = [t for t in ts if _friendly(view, t)] + [t for t in ts if not _friendly(view, t)]
            elif sk == "jijiang":
                ts = [t for t in ts if t in enemies]
                if not ts:
                    continue
            order = {"skill": sk, "cards": cs, "targets": ts[:k]}
            score = 2
            best.append((score, order))
            continue
        targets = a.get("targets", [])
        if name in HARMFUL and a.get("max", 0) > 0:
            ts = [t for t in targets if t in enemies]
            if not ts:
                continue
            order = {"use": a.get("use", a.get("use_pair", [])[:2]), "as": name, "targets": ts[:1]}
            if name == "collateral":
                subs = [b for b in a["sub"][str(ts[0])] if b in enemies] or a["sub"][str(ts[0])]
                order["sub_target"] = subs[0]
            score = 5 if name == "slash" else 4
            if "use_pair" in a:
                score = 1
        elif name == "peach":
            order = {"use": a["use"]}
            score = 9
        elif name in ("savage_assault", "archery_attack"):
            order = {"use": a["use"]}
            score = 3
        else:
            if name == "lightning" and rng.random() < 0.5:
                continue
            order = {"use": a["use"], "as": name}
            if targets:
                order["targets"] = targets[:1]
            score = 6
        best.append((score, order))
    if not best:
        return {"end": True}
    best.sort(key=lambda x: -x[0])
    top = [o for sc, o in best if sc == best[0][0]]
    return rng.choice(top)


def _cost(view: JSON, opt: JSON) -> JSON:
    """Pay an optional cost when it clearly helps (never the last Peach)."""
    me = view["you"]
    seat = view["seats"][me]
    cards = [c for c in opt["cards"] if view["cards"].get(str(c), {}).get("id") != "peach"]
    n = opt["count"]
    if len(cards) < n:
        return {"decline": True}
    why = opt["why"]
    if why == "liuli":
        by = opt.get("targets_by_card", {})
        enemies = _enemies(view)
        for c in cards:
            ts = [t for t in by.get(str(c), []) if t in enemies]
            if ts:
                return {"cards": [c], "target": ts[0]}
        return {"decline": True}
    if why == "ganglie" and seat["hp"] <= 2:
        return {"cards": cards[-n:]}
    if why == "axe" and len(cards) >= n + 1:
        return {"cards": cards[-n:]}
    if why == "double_swords" and len(seat.get("hand", [])) > seat["hp"]:
        return {"cards": cards[-n:]}
    return {"decline": True}


def choose(view: JSON, seed: str) -> JSON:
    """One legal order for the open ask of ``view['you']``."""
    ask = view["ask"]
    opt = view["legal"]
    rng = random.Random(f"bot|{seed}|{ask['no']}")
    kind = ask["kind"]
    me = view["you"]
    if kind == "choose_character":
        return {"character": opt["offered"][0]}
    if kind == "play":
        return _play(view, opt, rng)
    if kind in ("respond", "borrowed_sword"):
        if kind == "borrowed_sword" and _friendly(view, opt["target"]):
            return {"decline": True}
        if opt.get("armor"):
            return {"armor": True}
        if opt["cards"]:
            c = opt["cards"][0]
            o = {"card": c["card"]}
            if c.get("as"):
                o["as"] = c["as"]
            return o
        if opt.get("lord_skill"):
            return {"lord_skill": True}
        return {"decline": True}
    if kind == "negate_window":
        info = ask["info"]
        if opt["negates"] and info["depth"] == 0 and info["target"] == me and \
                info["about"] in HARMFUL:
            return {"negate": opt["negates"][0]}
        return {"pass": True}
    if kind == "rescue":
        if opt["cards"] and _friendly(view, opt["dying"]):
            return {"peaches": opt["cards"][:opt["max"]]}
        return {"pass": True}
    if kind == "discard":
        return {"cards": view["seats"][me]["hand"][-opt["count"]:]}
    if kind == "invoke":
        if opt.get("skill") == "guicai":
            return {"no": True}
        if "targets" in opt:
            ts = [t for t in opt["targets"] if not _friendly(view, t)] or opt["targets"]
            return {"yes": True, "targets": ts[:max(1, opt.get("min_targets", 1))]}
        return {"yes": True}
    if kind == "choose_card":
        return {"slot": rng.choice(opt["slots"])["slot"]}
    if kind == "choose_option":
        return {"suit": rng.choice(opt["suits"])}
    if kind == "pick_revealed":
        return {"card": opt["cards"][0]}
    if kind == "arrange":
        return {"top": opt["cards"], "bottom": []}
    if kind == "distribute":
        return {"keep": True}
    if kind == "optional_cost":
        return _cost(view, opt)
    return dict(view.get("default") or {})
