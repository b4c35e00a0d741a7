"""The one contract between the framework and every game engine (Django-free).

An engine is a module that exposes the functions of :class:`RulesEngine`. The framework
(``games/``) never looks inside a game's state: it stores ``dump(state)`` as JSON, shows
``player_view(state, seat)`` to a seat, persists the events of a :class:`Resolution` as diary
rows with their audience, and opens the phase that :func:`RulesEngine.current_phase` names.

Orders are accepted *into the state* (``submit``), not kept aside until the close, because
some rules act at once (Kill Game's market touches the buyer's inventory when requested) and
others need every earlier order to validate the next (order slots, "who was first",
Sanguosha's resolution stack). The framework also records every accepted order as a row, so
a match replays exactly from its seed and the recorded orders.

This module may import only the standard library: engines import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

SeatId = int
"""A seat in a match: 0..n-1 in the order the framework passes them to ``setup``."""

JSONDict = dict[str, Any]


class RulesError(ValueError):
    """Base of every error an engine raises on purpose."""

    code = "RULES_ERROR"
    status: int | None = None
    """The HTTP status the game's rules give this refusal (e.g. a rules' error table
    answering ``WRONG_PHASE`` with 409); ``None`` leaves the framework's default for the class."""

    def __init__(self, reason: str, *, code: str | None = None, field: str | None = None,
                 details: Mapping[str, Any] | None = None, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.field = field
        self.details: dict[str, Any] = dict(details or {})

    def as_dict(self) -> JSONDict:
        """The error as the JSON API returns it (the shape of killgame.md §19)."""
        return {"code": self.code, "message": self.reason, "field": self.field,
                "details": self.details}


class InvalidOrder(RulesError):
    """The order is malformed: unknown type, missing or mistyped field."""

    code = "MALFORMED"


class IllegalOrder(RulesError):
    """The order is well formed but the rules do not allow it now."""

    code = "ILLEGAL"


class InvalidConfig(RulesError):
    """A match configuration value is out of range or unknown."""

    code = "INVALID_CONFIG"


class Msg(str):
    """A sentence (or a game term) an engine writes for people, translatable later.

    The string itself is the English text, so an engine, its tests and its scenario tools
    read it as before; it also keeps the message id it was made from, the plural form and
    the parameters, and the app layer (``games.lib.text.say``) says it again in the
    reader's language with Django's catalogues. Parameters may be ``Msg`` themselves (a
    card's name) or lists of them (joined the reader's way). Build them with :func:`T`,
    :func:`Tn` and :func:`Tc`: ``makemessages`` extracts those calls (see
    ``games/management/commands/makemessages.py``).
    """

    msgid: str
    plural: str | None
    n: int | None
    context: str | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, params: Mapping[str, Any] | None = None,
                plural: str | None = None, n: int | None = None,
                context: str | None = None) -> "Msg":
        template = plural if plural is not None and n != 1 else msgid
        values = {k: (", ".join(str(x) for x in v) if isinstance(v, (list, tuple)) else v)
                  for k, v in (params or {}).items()}
        obj = super().__new__(cls, template % values if values else template)
        obj.msgid, obj.plural, obj.n, obj.context = msgid, plural, n, context
        obj.params = dict(params or {})
        return obj

    def fill(self, **params: Any) -> "Msg":
        """This message with (more) parameters: an engine declares a refusal once, as a
        module constant ``T("There is no %(face)s here.")`` (greppable, extracted), and
        raises ``CONSTANT.fill(face=3)``."""
        return Msg(self.msgid, {**self.params, **params}, plural=self.plural, n=self.n,
                   context=self.context)

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (caches) keep the id and the parameters
        return (Msg, (self.msgid, self.params, self.plural, self.n, self.context))


def T(msgid: str, **params: Any) -> Msg:  # noqa: N802 - the marker makemessages looks for
    """A translatable sentence: ``T("%(who)s draws.", who=name)``."""
    return Msg(msgid, params)


def Tn(singular: str, plural: str, n: int, **params: Any) -> Msg:  # noqa: N802
    """A sentence with a plural form chosen by ``n`` (the catalogue has every form)."""
    return Msg(singular, params, plural=plural, n=n)


def Tc(context: str, msgid: str) -> Msg:  # noqa: N802
    """A game term with a context, so "Kill" the card and "Kill" the game differ."""
    return Msg(msgid, None, context=context)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with who may read it.

    ``visible_to`` is ``None`` for a public event, else the seats that may see it
    ("whoever is in zone Z" is already turned into seats when the event is made).
    ``data`` holds only JSON values.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[SeatId] | None = None

    def visible_for(self, seat: SeatId | None) -> bool:
        """Whether ``seat`` (``None`` = a spectator) may read this event."""
        if self.visible_to is None:
            return True
        return seat is not None and seat in self.visible_to

    def to_json(self) -> JSONDict:
        return {"kind": self.kind, "data": dict(self.data),
                "visible_to": None if self.visible_to is None else sorted(self.visible_to)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        vis = raw.get("visible_to")
        return cls(kind=raw["kind"], data=dict(raw.get("data") or {}),
                   visible_to=None if vis is None else frozenset(vis))


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """The phase a state is waiting in, as the framework needs it.

    - ``kind``: a stable id ("tactical", "action", "turn", "ask:dodge"...).
    - ``awaited``: seats that must act (check in) before the phase may close early; a seat
      with nothing to do (dead, eliminated) is never awaited.
    - ``timing``: how the framework computes the deadline: ``"schedule"`` (the match
      schedule: its wall-clock window for ``kind``, or its duration), ``"check"`` (CHECK
      mode: opens at once, capped by the schedule's ``check_max_hours``, default 24), a
      duration class name looked up in the schedule's ``durations`` (``"short"``,
      ``"normal"``...), or ``"none"`` (no deadline: solo play).
    - ``close_when_all_checked_in``: close as soon as every awaited seat checked in (CHECK
      mode, asks); False keeps a scheduled phase open until its deadline.
    - ``checkin_final``: a check-in cannot be withdrawn (Kill Game's CHECK).
    - ``turn``: the turn number shown to people (diary grouping).
    - ``default_text``: what happens to an awaited seat that does nothing, in one sentence.
    """

    kind: str
    awaited: frozenset[SeatId]
    timing: str = "schedule"
    close_when_all_checked_in: bool = True
    checkin_final: bool = False
    turn: int = 0
    default_text: str = ""


@dataclass(frozen=True, slots=True)
class Submitted:
    """The result of accepting one order.

    ``state`` already holds the order (and any effect the rules apply at once).
    ``done`` says the order completes the seat's part of this phase (the framework checks
    the seat in: a Dice Slayer pick, an answer to a Sanguosha ask). ``events`` are the
    immediate effects the seat should read (a market receipt), with their audience.
    """

    state: Any
    done: bool = False
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Resolution:
    """What closing a phase produced: the new state and the events, in order."""

    state: Any
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended: winning seats (may be empty: a draw) and a summary."""

    winners: frozenset[SeatId]
    summary: str = ""
    scores: Mapping[SeatId, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfigField:
    """One setting of a game's match configuration, for forms and validation.

    ``type`` is one of ``"int"``, ``"bool"``, ``"str"``, ``"choice"``, ``"json"``.
    """

    key: str
    type: str
    default: Any
    label: str = ""
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    min: int | None = None
    max: int | None = None
    house_rule: bool = False
    """A constant the rules fix (not a real choice): forms offer it collapsed under
    "House rules" with its default, apart from the match's real choices."""


class RulesEngine(Protocol):
    """The functions every ``<game>/engine`` module exposes (same names in every game)."""

    SLUG: str
    NAME: str
    MIN_SEATS: int
    MAX_SEATS: int

    def config_schema(self) -> Sequence[ConfigField]:
        """Every setting with its default (the rules files' "chosen defaults")."""

    def validate_config(self, config: Mapping[str, Any]) -> JSONDict:
        """Return the full config (defaults filled in) or raise :class:`InvalidConfig`."""

    def setup(self, config: Mapping[str, Any], seats: Sequence[SeatId], seed: str) -> Any:
        """The opening state for these seats; all randomness from ``seed``."""

    def current_phase(self, state: Any) -> PhaseSpec | None:
        """The phase the state waits in, or ``None`` once the match is over."""

    def submit(self, state: Any, seat: SeatId, order: Mapping[str, Any]) -> Submitted:
        """Accept one order of ``seat`` into the state or raise InvalidOrder/IllegalOrder.

        A refused order changes nothing (the state is immutable).
        """

    def validate_order(self, state: Any, seat: SeatId, order: Mapping[str, Any]) -> None:
        """Raise as :meth:`submit` would; return None when the order would be accepted."""

    def default_orders(self, state: Any, seat: SeatId) -> Sequence[Mapping[str, Any]]:
        """What an absent awaited seat does (submitted by the framework before resolve)."""

    def bot_orders(self, state: Any, seat: SeatId, seed: str) -> Sequence[Mapping[str, Any]]:
        """What the game's bot would order for ``seat``, decided from its player view."""

    def resolve(self, state: Any, seed: str) -> Resolution:
        """Close the current phase: resolve every accepted order at once."""

    def player_view(self, state: Any, seat: SeatId | None) -> JSONDict:
        """Exactly what ``seat`` (``None`` = a spectator) may see; JSON only."""

    def omniscient_view(self, state: Any) -> JSONDict:
        """Everything: for the director and the post-game replay."""

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the match is over, else ``None``."""

    def dump(self, state: Any) -> JSONDict:
        """The state as JSON; ``load(dump(s)) == s``."""

    def load(self, raw: Mapping[str, Any]) -> Any:
        """Rebuild a state from :meth:`dump` output."""

    def describe(self, event: Event, viewer: SeatId | None, lang: str = "en",
                 names: Mapping[SeatId, str] | None = None) -> str:
        """One plain sentence for a diary line, from ``viewer``'s point of view; ``names``
        (seat number -> player name) is how a sentence names the other players (the one
        way: pages, emails and the API pass the seats' names; without them, seat labels).
        A game's ``GameHooks.describe_context`` adds keyword arguments of its own."""


def idle_reason(engine: Any, state: Any, seat: SeatId) -> RulesError | None:
    """Why ``seat`` has nothing to do now, in the game's own words, when the game says.

    An engine may define ``idle_reason(state, seat) -> RulesError | None`` (Kill Game: a
    dead player is told ``PLAYER_DEAD``; Dice Slayer: "it is not your turn"). It is
    optional: an engine without it, or answering ``None``, leaves the framework's generic
    ``NOT_AWAITED``.
    """
    explain = getattr(engine, "idle_reason", None)
    return explain(state, seat) if explain is not None else None
