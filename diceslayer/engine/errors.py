"""Errors the Dice Slayer engine raises on purpose, with greppable message constants.

``InvalidOrder`` means the order is malformed (wrong shape or type); ``IllegalOrder`` means
it is well formed but the rules forbid it now (docs/diceslayer-rules.md §5 "bad input").
Both come from :mod:`games.rules` so the framework maps them without knowing this game.
"""

from __future__ import annotations

from games.rules import IllegalOrder, InvalidConfig, InvalidOrder, RulesError

EngineError = RulesError

# Messages (format with ``.format(...)``); a player reads these as they are.
MSG_NOT_A_DICT = "An order must be a JSON object such as {\"pick\": 4}."
MSG_UNKNOWN_KEYS = "Unknown field(s) in the order: {keys}."
MSG_NO_ACTION = "Say what to do: \"pick\", \"wild\" or \"bomb\" (exactly one)."
MSG_BAD_FACE = "A die face is a whole number from 1 to 6, not {value!r}."
MSG_BAD_FROM = "\"from\" is \"own\" or \"opponent\", not {value!r}."
MSG_BAD_CANCEL_SHAPE = "\"cancel\" is a list of die faces (1 to 6)."
MSG_CANCEL_ONLY_WITH_PICK = "\"cancel\" goes with a pick."
MSG_FROM_ONLY_WITH_PICK = "\"from\" goes with a pick."

MSG_GAME_OVER = "The game is over: no more moves."
MSG_NOT_A_SEAT = "Seat {seat} does not play in this game."
# an out-of-turn move conflicts with the game's state: 409, as the framework's other
# "not now" refusals
STATUS_NOT_YOUR_TURN = 409
MSG_NOT_YOUR_TURN = "It is not your turn: your opponent is to move."
MSG_ALREADY_MOVED = "You have already made your move for this turn."
MSG_FACE_ABSENT_OWN = "There is no {face} on your field to pick."
MSG_FACE_ABSENT_PLATE = "There is no {face} on the plate to pick."
MSG_FACE_ABSENT_OPP = "There is no {face} on your opponent's field to pick."
MSG_NO_OPPONENT = "Solo has no opponent's field to pick from."
MSG_NO_WILD_VARIANT = "Wild dice are only in the solo game with wild dice."
MSG_NO_WILD = "You have no wild die left."
MSG_NO_BOMB_VARIANT = "The bomb exists only in versus (prototype 2)."
MSG_BOMB_OPPONENT = "The bomb belongs to your opponent now: you cannot use it this turn."
MSG_BOMB_FACE_ABSENT = "There is no {face} on your field to bomb."
MSG_CANCEL_NOT_IN_VARIANT = "Grace zones exist only in versus (prototype 1)."
MSG_CANCEL_COUNT = ("This pick removes {n} dice, so \"cancel\" must list exactly {n} of your "
                    "grace dice, not {given}.")
MSG_CANCEL_ABSENT = "Your grace zone does not hold the dice {faces} to cancel."

# Codes (stable, for the JSON API and tests).
CODE_GAME_OVER = "GAME_OVER"
CODE_NOT_A_SEAT = "NOT_A_SEAT"
CODE_NOT_YOUR_TURN = "NOT_YOUR_TURN"
CODE_ALREADY_MOVED = "ALREADY_MOVED"
CODE_FACE_ABSENT = "FACE_ABSENT"
CODE_NO_OPPONENT = "NO_OPPONENT"
CODE_NO_WILD = "NO_WILD"
CODE_BOMB_OWNED = "BOMB_OWNED"
CODE_NOT_IN_VARIANT = "NOT_IN_VARIANT"
CODE_BAD_CANCEL = "BAD_CANCEL"
CODE_BAD_FACE = "BAD_FACE"


class OutOfRolls(RulesError):
    """A scripted dice source (the scenario runner's ``rolls``) ran dry."""

    code = "OUT_OF_ROLLS"


__all__ = [
    "EngineError", "IllegalOrder", "InvalidConfig", "InvalidOrder", "OutOfRolls", "RulesError",
]
