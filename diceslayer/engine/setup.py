"""Match configuration, the opening position, and the daily-challenge seed.

- ``config_schema`` / ``validate_config``: the variant (solo | solo_wild | versus1 |
  versus2) and the versus 2 target score (none by default, rules §4.12).
- ``setup``: solo rolls 3 dice onto the empty plate (§1 step 1); versus rolls 3 dice per
  player, the higher total moves first, ties reroll (§3 "Start", §4.13). In versus 1 those
  dice are the starting fields; in versus 2 the fields start empty and the first mover's
  roll-in brings 3 dice.
- ``daily_seed``: one seed per calendar day, the same for everyone (§5).
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any, Mapping, Sequence

from games.rules import ConfigField, Event, InvalidConfig, T, Tn

from diceslayer.engine.rules.dice import Dice, SeededDice
from diceslayer.engine.rules.resolve import roll_in_count, settle_versus1
from diceslayer.engine.state import VERSUS1_TARGET, Player, State, Variant

CONFIG_SCHEMA: tuple[ConfigField, ...] = (
    ConfigField(
        key="variant", type="choice", default=Variant.SOLO.value, label=T("Variant"),
        help=T("Solo, solo with wild dice, or one of the two versus prototypes."),
        # versus 2 before the prototype 1 it replaced (most prototype 1 games end 0–0)
        choices=tuple((v.value, v.label) for v in (Variant.SOLO, Variant.SOLO_WILD,
                                                   Variant.VERSUS2, Variant.VERSUS1))),
    ConfigField(
        key="target_score", type="int", default=0, label=T("Target score"),
        help=T("Versus prototype 2 only: the first to reach it wins. 0 = no target "
               "(the match ends only by overflow)."), min=0, max=100_000),
)


def config_schema() -> tuple[ConfigField, ...]:
    """Every setting with its default (rules §4.12: no target score by default)."""
    return CONFIG_SCHEMA


def validate_config(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full configuration with defaults filled in, or raise ``InvalidConfig``.

    >>> validate_config({"variant": "versus2", "target_score": 300})
    {'variant': 'versus2', 'target_score': 300}
    """
    raw = dict(config or {})
    known = {f.key for f in CONFIG_SCHEMA}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InvalidConfig(T("Unknown setting(s): %(keys)s.", keys=list(unknown)), field=unknown[0])
    variant = raw.get("variant", Variant.SOLO.value)
    try:
        Variant(variant)
    except ValueError:
        raise InvalidConfig(
            T("Variant must be one of %(choices)s, not %(value)s.",
              choices=[v.value for v in Variant], value=repr(variant)),
            field="variant") from None
    target = raw.get("target_score", 0)
    if target is None:
        target = 0
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 100_000:
        raise InvalidConfig(T("Target score must be a whole number from 0 to 100000."),
                            field="target_score")
    if target and variant != Variant.VERSUS2.value:
        raise InvalidConfig(T("A target score applies only to versus prototype 2."),
                            field="target_score")
    return {"variant": variant, "target_score": target}


def setup(config: Mapping[str, Any] | None, seats: Sequence[int], seed: str) -> State:
    """The opening state, waiting for the first mover's choice.

    >>> s = setup({"variant": "solo"}, [0], "demo")
    >>> len(s.players[0].plate), s.players[0].stock, s.turn
    (3, (), 1)
    """
    return setup_with_events(config, seats, SeededDice(seed))[0]


def setup_with_events(config: Mapping[str, Any] | None, seats: Sequence[int],
                      dice: Dice) -> tuple[State, list[Event]]:
    """:func:`setup` plus the events of the opening rolls (for the diary)."""
    cfg = validate_config(config)
    variant = Variant(cfg["variant"])
    if len(seats) != variant.seats:
        raise InvalidConfig(Tn("%(variant)s is for %(count)s player, not %(given)s.",
                               "%(variant)s is for %(count)s players, not %(given)s.",
                               variant.seats, variant=variant.label, count=variant.seats,
                               given=len(seats)), field="seats")
    events: list[Event] = []
    index = 0

    def roll(n: int, seat: int, reason: str) -> tuple[int, ...]:
        nonlocal index
        faces = dice.roll(n, index)
        index += 1
        events.append(Event("rolled", {"seat": seat, "faces": list(faces), "reason": reason}))
        return faces

    if variant.is_solo:
        plate = roll(3, 0, "roll_in")
        wild = 1 if variant is Variant.SOLO_WILD else 0
        state = State(variant=variant, players=(Player(plate=tuple(sorted(plate)), wild=wild),),
                      rolls_done=index)
        return state, events
    while True:
        a = roll(3, 0, "start")
        b = roll(3, 1, "start")
        if sum(a) != sum(b):
            break
        events.append(Event("start_tie", {"total": sum(a)}))
    first = 0 if sum(a) > sum(b) else 1
    events.append(Event("first_player", {"seat": first, "totals": [sum(a), sum(b)]}))
    if variant is Variant.VERSUS1:
        players = (Player(plate=tuple(sorted(a))), Player(plate=tuple(sorted(b))))
        state = State(variant=variant, players=players, to_move=first,
                      target=VERSUS1_TARGET, rolls_done=index)
        return state, events
    fields: list[tuple[int, ...]] = [(), ()]
    fields[first] = tuple(sorted(roll(roll_in_count(variant, 0), first, "roll_in")))
    state = State(variant=variant, players=(Player(plate=fields[0]), Player(plate=fields[1])),
                  to_move=first, target=cfg["target_score"] or None, rolls_done=index)
    state, more = settle_versus1(state, dice)
    return state, events + more


def daily_seed(date_iso: str) -> str:
    """The seed of the daily challenge for a calendar day (``YYYY-MM-DD``).

    Pure: everyone playing that day gets the same roll-ins for the same choices.

    >>> daily_seed("2026-11-30") == daily_seed("2026-11-30") != daily_seed("2026-12-01")
    True
    """
    try:
        day = datetime.date.fromisoformat(str(date_iso))
    except ValueError:
        raise ValueError(f"Not a calendar date (YYYY-MM-DD): {date_iso!r}") from None
    digest = hashlib.blake2b(f"diceslayer-daily|{day.isoformat()}".encode(), digest_size=12)
    return f"daily-{day.isoformat()}-{digest.hexdigest()}"
