"""Three Kingdoms Kill rules engine (pure; ``games.rules.RulesEngine``).

Each open ask of ``docs/sanguosha-rules.md`` §12 is one framework phase: ``current_phase``
describes it, ``submit`` stores an answer in the state, ``resolve`` applies the answers
(defaults of §12.5 for the silent) and runs the resolution stack to the next ask.

>>> s = setup({}, [0, 1, 2, 3], "doc")
>>> current_phase(s).kind
'ask:choose_character'
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from games.rules import Outcome, PhaseSpec, Resolution, Submitted, T

# The frame handlers register themselves on import; they are imported here, once, so that
# ``flow`` (the loop they all use) imports none of them and no import circle forms.
from sanguosha.engine import cardflow as _cardflow  # noqa: F401  (using a card)
from sanguosha.engine import characters as _characters  # noqa: F401  (registers the skills)
from sanguosha.engine import damage as _damage  # noqa: F401  (damage, dying, death)
from sanguosha.engine import effects as _effects  # noqa: F401  (registers trick frames)
from sanguosha.engine import judge as _judge  # noqa: F401  (judgments)
from sanguosha.engine.data import IDENTITY_NAMES
from sanguosha.engine.describe import describe
from sanguosha.engine.errors import IllegalOrder, InvalidOrder
from sanguosha.engine.flow import run
from sanguosha.engine.orders import check
from sanguosha.engine.setup import config_schema, setup, validate_config
from sanguosha.engine.state import Ctx, State, copy_json
from sanguosha.engine.view import omniscient_view, player_view

SLUG = "sanguosha"
NAME = "Three Kingdoms Kill"
MIN_SEATS = 2
MAX_SEATS = 10

__all__ = ["SLUG", "NAME", "MIN_SEATS", "MAX_SEATS", "config_schema", "validate_config", "setup",
           "current_phase", "submit", "validate_order", "default_orders", "bot_orders", "resolve",
           "player_view", "omniscient_view", "outcome", "dump", "load", "describe", "State",
           "IllegalOrder", "InvalidOrder", "awaiting"]


def awaiting(state: State) -> list[int]:
    """Seats whose answer is still needed before the open ask may close."""
    st = state.raw
    ask = st["ask"]
    if st["over"] or ask is None:
        return []
    if ask["first_wins"] and any(a.get("negate") is not None for a in st["answers"].values()):
        return []
    return [s for s in ask["awaited"] if str(s) not in st["answers"]]


def current_phase(state: State) -> PhaseSpec | None:
    """The open ask as a framework phase, or None once the game is over."""
    st = state.raw
    ask = st["ask"]
    if st["over"] or ask is None:
        return None
    awaited = frozenset(ask["awaited"])
    if ask["first_wins"] and any(a.get("negate") is not None for a in st["answers"].values()):
        # a Negate closes the window at once (§12.6): only those who answered are awaited
        awaited = frozenset(int(s) for s in st["answers"])
    return PhaseSpec(kind=f"ask:{ask['kind']}", awaited=awaited, timing=ask["timing"],
                     close_when_all_checked_in=True, checkin_final=bool(ask["first_wins"]),
                     turn=st["turn"], default_text=ask["text"])


def validate_order(state: State, seat: int, order: Mapping[str, Any]) -> None:
    check(Ctx(state, copy=False), seat, order)


def submit(state: State, seat: int, order: Mapping[str, Any]) -> Submitted:
    """Store ``seat``'s answer to the open ask (validated; replaces an earlier answer)."""
    ctx = Ctx(state)
    check(ctx, seat, order)
    ctx.st["answers"][str(seat)] = copy_json(dict(order))  # also proves the order is JSON
    return Submitted(state=ctx.freeze(), done=True)


def default_orders(state: State, seat: int) -> Sequence[Mapping[str, Any]]:
    """The §12.5 default of ``seat`` for the open ask (empty if it is not awaited)."""
    ask = state.raw["ask"]
    if ask is None or seat not in ask["awaited"] or state.raw["over"]:
        return []
    return [copy_json(ask["defaults"][str(seat)])]


def bot_orders(state: State, seat: int, seed: str) -> Sequence[Mapping[str, Any]]:
    from sanguosha.engine.bot import choose
    ask = state.raw["ask"]
    if ask is None or seat not in ask["awaited"] or state.raw["over"]:
        return []
    return [choose(player_view(state, seat), seed)]


def resolve(state: State, seed: str) -> Resolution:
    """Close the open ask (defaults for the silent) and run to the next ask or the end.

    .. warning:: answers were validated by ``submit``; nothing is re-checked here.
    """
    ctx = Ctx(state, seed)
    st = ctx.st
    ask = st["ask"]
    if ask is not None and not st["over"]:
        answers = dict(st["answers"])
        for s in ask["awaited"]:
            answers.setdefault(str(s), copy_json(ask["defaults"][str(s)]))
        ctx.emit("ask_closed", {"no": ask["no"], "kind": ask["kind"], "info": ask["info"]})
        st["ask"] = None
        st["answers"] = {}
        st["stack"][-1]["ans"] = answers
    run(ctx)
    return Resolution(state=ctx.freeze(), events=tuple(ctx.events))


def outcome(state: State) -> Outcome | None:
    st = state.raw
    if not st["over"]:
        return None
    winners = frozenset(st["winners"])
    if st["end_reason"] == "draw":
        return Outcome(winners=frozenset(), summary=T("Draw: the deck ran out."))
    ids = sorted({st["seats"][s]["identity"] for s in winners})
    # the identities' names (Msg): "Winners: Rebel", said in the reader's language
    return Outcome(winners=winners, summary=T("Winners: %(roles)s",
                                              roles=[IDENTITY_NAMES[i][0] for i in ids]))


def dump(state: State) -> dict[str, Any]:
    raw: dict[str, Any] = copy_json(state.raw)
    return raw


def load(raw: Mapping[str, Any]) -> State:
    return State(copy_json(dict(raw)))

