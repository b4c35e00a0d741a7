"""Lü Meng: Self-Mastery — no Kill used or played in his Play phase: he may skip Discard."""

from __future__ import annotations

from sanguosha.engine.skills import Trigger, trigger


def _apply(ctx, s, data, order):
    ctx.stack[data["frame"]]["skipped"] = True


KEJI = trigger(Trigger("keji", "discard_skip", True,
                       lambda ctx, s, d: not ctx.st["tc"]["used_kill"], _apply))
