"""Sima Yi: Demonic Talent (retrial, run by the judgment frame for every ``guicai`` owner);
Retaliation (take a card from the damage source)."""

from __future__ import annotations

from sanguosha.engine.skills import Trigger, trigger


def _can(ctx, s, data):
    src = data.get("source")
    return src is not None and src != s and ctx.alive(src) and \
        bool(ctx.seat(src)["hand"] or ctx.equipped(src))


def _apply(ctx, s, data, order):
    ctx.push({"t": "take_card", "chooser": s, "owner": data["source"], "areas": ["hand", "equip"],
              "why": "fankui"})


FANKUI = trigger(Trigger("fankui", "after_damage", False, _can, _apply))
GUICAI = "guicai"  # see flow.h_judge, step "retrial"
