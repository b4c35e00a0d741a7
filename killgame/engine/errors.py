"""Kill Game order errors: the §19 codes, their priority, and the exceptions the engine raises.

Every refused order raises a subclass of :class:`games.rules.InvalidOrder` (``MALFORMED``,
``UNKNOWN_ID``) or :class:`games.rules.IllegalOrder` (every other code), carrying the §19
``code``, the offending ``field``, ``details`` and a sentence a player understands.
"""

from __future__ import annotations

from typing import Any, Mapping, NoReturn

from games.rules import IllegalOrder, InvalidOrder, RulesError, T

# §19, in the order of priority when an order fails several checks.
CODES: tuple[str, ...] = (
    "MALFORMED", "UNKNOWN_ID", "NOT_A_PARTICIPANT", "MATCH_NOT_RUNNING", "PLAYER_DEAD",
    "WRONG_PHASE", "ALREADY_CHECKED", "NOT_ALLOWED_THIS_TURN", "FEATURE_DISABLED",
    "NOT_SELLABLE", "ITEM_NOT_OWNED", "WEAPON_RELOADING", "EXCLUSIVE_ACTION_CONFLICT",
    "ZONE_CLOSED", "ZONE_NOT_ADJACENT", "PROTECTED_ZONE", "ZONE_NOT_STARTABLE",
    "INVALID_TARGET", "TARGET_HIDDEN", "TARGET_NOT_IN_ZONE", "TOO_MANY_TARGETS",
    "SLOT_OCCUPIED", "PURCHASE_LIMIT_REACHED", "OVER_BUDGET", "NO_EFFECT",
)
PRIORITY: dict[str, int] = {c: i for i, c in enumerate(CODES)}

HTTP_STATUS: dict[str, int] = {
    "MALFORMED": 400, "UNKNOWN_ID": 400, "NOT_A_PARTICIPANT": 403, "PLAYER_DEAD": 403,
    "MATCH_NOT_RUNNING": 409, "WRONG_PHASE": 409, "ALREADY_CHECKED": 409,
    "NOT_ALLOWED_THIS_TURN": 409,
}

# Module-level messages keep tests greppable (STYLE §16); ``games.rules.Msg``, said in the
# reader's language by the app layer.
MSG_MALFORMED = T("This order is not understood.")
MSG_UNKNOWN_ORDER = T("There is no such order.")
MSG_UNKNOWN_ID = T("There is no such zone, player, monster or item.")
MSG_NOT_A_PARTICIPANT = T("You are not playing in this match.")
MSG_MATCH_NOT_RUNNING = T("The match is not running.")
MSG_PLAYER_DEAD = T("You are dead: you can only watch.")
MSG_WRONG_PHASE = T("This order belongs to the other phase.")
MSG_ALREADY_CHECKED = T("You already pressed CHECK: your orders are locked for this phase.")
MSG_NOT_ALLOWED_THIS_TURN = T("This order is not allowed in this turn.")
MSG_FROM_TURN_2 = T("This order is allowed from turn 2: turn 1 is for shopping and the start zone.")
MSG_TURN_1_ONLY = T("This order is allowed in turn 1 only.")
MSG_FEATURE_DISABLED = T("This feature is disabled in this match.")
MSG_NOT_SELLABLE = T("This cannot be sold.")
MSG_ITEM_NOT_OWNED = T("You do not have that.")
MSG_WEAPON_RELOADING = T("This weapon was fired last turn and is reloading.")
MSG_EXCLUSIVE = T("You already gave a different combat order; withdraw it first.")
MSG_ZONE_CLOSED = T("That zone is closed.")
MSG_ZONE_NOT_ADJACENT = T("You can only target a zone next to yours.")
MSG_MOVE_NOT_ADJACENT = T("You can only move to a zone next to yours.")
MSG_PROTECTED_ZONE = T("The central zone is protected: no grenades, C4 or gas there.")
MSG_ZONE_NOT_STARTABLE = T("You cannot start in that zone.")
MSG_INVALID_TARGET = T("You cannot target yourself.")
MSG_TARGET_HIDDEN = T("Your zone is full of smoke: you cannot name a target, attack at random.")
MSG_TARGET_NOT_IN_ZONE = T("That target is not in your zone.")
MSG_TOO_MANY_TARGETS = T("Your weapon does not allow that many targets.")
MSG_SLOT_OCCUPIED = T("You already have one of those.")
MSG_PURCHASE_LIMIT = T("You cannot buy more in this phase.")
MSG_OVER_BUDGET = T("You do not have enough coins.")
MSG_NO_EFFECT = T("This would have no effect.")


class KillGameOrderError(RulesError):
    """Marker base shared by the two Kill Game order error classes."""


class MalformedOrder(InvalidOrder, KillGameOrderError):
    """``MALFORMED`` or ``UNKNOWN_ID``: the order cannot be understood."""


class RefusedOrder(IllegalOrder, KillGameOrderError):
    """A well-formed order the rules refuse now (every other §19 code)."""


def fail(code: str, message: str, field: str | None = None,
         details: Mapping[str, Any] | None = None) -> NoReturn:
    """Raise the right exception class for ``code``."""
    assert code in PRIORITY, code
    cls = MalformedOrder if code in ("MALFORMED", "UNKNOWN_ID") else RefusedOrder
    raise cls(message, code=code, field=field, details=details, status=HTTP_STATUS.get(code))
