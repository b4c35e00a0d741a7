"""Random *legal* answers built only from a seat's player view (for property tests)."""

from __future__ import annotations

import random
from typing import Any

JSON = dict[str, Any]


def _subset(rng: random.Random, items: list[Any], lo: int, hi: int) -> list[Any]:
    hi = min(hi, len(items))
    k = rng.randint(lo, hi) if hi >= lo else lo
    return rng.sample(items, k)


def random_order(view: JSON, rng: random.Random) -> JSON:
    ask, opt = view["ask"], view["legal"]
    kind = ask["kind"]
    if kind == "choose_character":
        return {"character": rng.choice(opt["offered"])}
    if kind == "play":
        acts = opt["actions"]
        a = rng.choice(acts) if rng.random() < 0.85 else {"end": True}
        if a.get("end"):
            return {"end": True}
        if "use_pair" in a:
            pair = rng.sample(a["use_pair"], 2)
            hi = a["max"] if len(a["use_pair"]) == 2 else 1
            return {"use": pair, "as": "slash", "targets": _subset(rng, a["targets"], a["min"], hi)}
        if "use" in a:
            o: JSON = {"use": a["use"], "as": a["as"],
                       "targets": _subset(rng, a["targets"], a["min"], a["max"])}
            if a["as"] == "collateral":
                o["sub_target"] = rng.choice(a["sub"][str(o["targets"][0])])
            return o
        cards = _subset(rng, a.get("cards", []), a.get("min_cards", 0), a.get("max_cards", 0))
        ts = _subset(rng, a.get("targets", []), a.get("min_targets", 0), a.get("max_targets", 0))
        if a["skill"] == "lijian":
            first = rng.choice(a["first"])
            ts = [first, rng.choice([t for t in a["targets"] if t != first])]
        return {"skill": a["skill"], "cards": cards, "targets": ts}
    if kind in ("respond", "borrowed_sword"):
        choices: list[JSON] = [{"decline": True}]
        choices += [{"card": c["card"], "as": c["as"]} for c in opt["cards"]]
        if opt.get("pair"):
            choices.append({"cards": rng.sample(opt["pair"], 2), "as": "slash"})
        if opt.get("armor"):
            choices.append({"armor": True})
        if opt.get("lord_skill"):
            choices.append({"lord_skill": True})
        return rng.choice(choices)
    if kind == "negate_window":
        if opt["negates"] and rng.random() < 0.5:
            return {"negate": rng.choice(opt["negates"])}
        return {"pass": True}
    if kind == "rescue":
        if opt["cards"] and rng.random() < 0.6:
            return {"peaches": _subset(rng, opt["cards"], 1, opt["max"])}
        return {"pass": True}
    if kind == "discard":
        return {"cards": rng.sample(opt["cards"], opt["count"])}
    if kind == "invoke":
        if rng.random() < 0.3:
            return {"no": True}
        if opt.get("skill") == "guicai":
            return {"yes": True, "card": rng.choice(opt["cards"])}
        if "targets" in opt:
            return {"yes": True, "targets": _subset(rng, opt["targets"], opt.get("min_targets", 1),
                                                    opt.get("max_targets", 1))}
        return {"yes": True}
    if kind == "choose_card":
        return {"slot": rng.choice(opt["slots"])["slot"]}
    if kind == "choose_option":
        return {"suit": rng.choice(opt["suits"])}
    if kind == "pick_revealed":
        return {"card": rng.choice(opt["cards"])}
    if kind == "arrange":
        cards = list(opt["cards"])
        rng.shuffle(cards)
        k = rng.randint(0, len(cards))
        return {"top": cards[:k], "bottom": cards[k:]}
    if kind == "distribute":
        if rng.random() < 0.3:
            return {"keep": True}
        two = rng.sample(opt["targets"], min(2, len(opt["targets"])))
        return {"give": {str(c): rng.choice(two) for c in opt["cards"]}}
    if kind == "optional_cost":
        if rng.random() < 0.4 or len(opt["cards"]) < opt["count"]:
            return {"decline": True}
        cards = rng.sample(opt["cards"], opt["count"])
        o = {"cards": cards}
        if "targets" in opt:
            allowed = opt.get("targets_by_card", {}).get(str(cards[0]), opt["targets"])
            o["target"] = rng.choice(allowed)
        return o
    raise AssertionError(f"unknown ask kind {kind}")
