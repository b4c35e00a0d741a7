"""The skill mechanism, written once (§11, §6.4, §6.7).

Every character module under ``characters/`` declares its skills with the four shapes
below and registers them here; the rules core only asks this registry:

- :class:`Conversion` — use/play some card(s) *as* another card (Warrior Saint, Beauty…);
- :class:`Trigger` — at a timing, optionally ask the owner (``invoke``), then act;
- :class:`Active` — a Play-phase action with cards and targets (Benevolence…);
- compulsory modifiers are plain flags looked up with ``Ctx.has`` (Roar, Horsemanship…).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from sanguosha.engine.data import CARDS

JSON = dict[str, Any]


@dataclass(frozen=True)
class Conversion:
    """Use or play one card from ``zones`` as ``to`` when ``accepts(card)`` (§6.4)."""

    skill: str
    to: str
    zones: tuple[str, ...]
    accepts: Callable[[int], bool]
    outside_own_turn: bool = False
    from_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Trigger:
    """An optional (or compulsory) triggered skill."""

    skill: str
    timing: str
    timeout_yes: bool
    can: Callable[[Any, int, JSON], bool]
    apply: Callable[[Any, int, JSON, JSON], None]
    choices: Callable[[Any, int, JSON], JSON] | None = None
    compulsory: bool = False


@dataclass(frozen=True)
class Active:
    """A Play-phase skill: its option for the view and its start."""

    skill: str
    option: Callable[[Any, int], JSON | None]
    start: Callable[[Any, int, JSON], None]
    check: Callable[[Any, int, JSON], str | None] = lambda ctx, s, order: None


CONVERSIONS: list[Conversion] = []
TRIGGERS: dict[str, list[Trigger]] = {}
ACTIVES: dict[str, Active] = {}
TRIGGER_BY_SKILL: dict[str, Trigger] = {}
FRAME_HANDLERS: dict[str, Callable[[Any, JSON], None]] = {}


def conversion(conv: Conversion) -> Conversion:
    CONVERSIONS.append(conv)
    return conv


def trigger(trig: Trigger) -> Trigger:
    TRIGGERS.setdefault(trig.timing, []).append(trig)
    TRIGGER_BY_SKILL[trig.skill] = trig
    return trig


def active(act: Active) -> Active:
    ACTIVES[act.skill] = act
    return act


def frame(name: str) -> Callable[[Callable[[Any, JSON], None]], Callable[[Any, JSON], None]]:
    """Register a frame handler (a multi-step skill keeps its own frame)."""
    def deco(fn: Callable[[Any, JSON], None]) -> Callable[[Any, JSON], None]:
        FRAME_HANDLERS[name] = fn
        return fn
    return deco


def red(card: int) -> bool:
    return CARDS[card].color == "red"


def black(card: int) -> bool:
    return CARDS[card].color == "black"
