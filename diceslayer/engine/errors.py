"""Errors the Dice Slayer engine raises on purpose, with greppable message constants.

``InvalidOrder`` means the order is malformed (wrong shape or type); ``IllegalOrder`` means
it is well formed but the rules forbid it now (docs/diceslayer-rules.md §5 "bad input").
Both come from :mod:`games.rules` so the framework maps them without knowing this game.
"""

from __future__ import annotations

from games.rules import IllegalOrder, InvalidConfig, InvalidOrder, Msg, RulesError, T, Tn

EngineError = RulesError

# Messages (``games.rules.Msg``: said in the reader's language by the app layer); those with
# placeholders are raised as ``MSG_X.fill(face=...)``.
MSG_NOT_A_DICT = T("An order must be a JSON object such as {\"pick\": 4}.")
MSG_UNKNOWN_KEYS = T("Unknown field(s) in the order: %(keys)s.")
MSG_NO_ACTION = T("Say what to do: \"pick\", \"wild\" or \"bomb\" (exactly one).")
MSG_BAD_FACE = T("A die face is a whole number from 1 to 6, not %(value)s.")
MSG_BAD_FROM = T("\"from\" is \"own\" or \"opponent\", not %(value)s.")
MSG_BAD_CANCEL_SHAPE = T("\"cancel\" is a list of die faces (1 to 6).")
MSG_CANCEL_ONLY_WITH_PICK = T("\"cancel\" goes with a pick.")
MSG_FROM_ONLY_WITH_PICK = T("\"from\" goes with a pick.")

MSG_GAME_OVER = T("The game is over: no more moves.")
MSG_NOT_A_SEAT = T("Seat %(seat)s does not play in this game.")
# an out-of-turn move conflicts with the game's state: 409, as the framework's other
# "not now" refusals
STATUS_NOT_YOUR_TURN = 409
MSG_NOT_YOUR_TURN = T("It is not your turn: your opponent is to move.")
MSG_ALREADY_MOVED = T("You have already made your move for this turn.")
MSG_FACE_ABSENT_OWN = T("There is no %(face)s on your field to pick.")
MSG_FACE_ABSENT_PLATE = T("There is no %(face)s on the plate to pick.")
MSG_FACE_ABSENT_OPP = T("There is no %(face)s on your opponent's field to pick.")
MSG_NO_OPPONENT = T("Solo has no opponent's field to pick from.")
MSG_NO_WILD_VARIANT = T("Wild dice are only in the solo game with wild dice.")
MSG_NO_WILD = T("You have no wild die left.")
MSG_NO_BOMB_VARIANT = T("The bomb exists only in versus (prototype 2).")
MSG_BOMB_OPPONENT = T("The bomb belongs to your opponent now: you cannot use it this turn.")
MSG_BOMB_FACE_ABSENT = T("There is no %(face)s on your field to bomb.")
MSG_CANCEL_NOT_IN_VARIANT = T("Grace zones exist only in versus (prototype 1).")
MSG_CANCEL_ABSENT = T("Your grace zone does not hold the dice %(faces)s to cancel.")

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


def msg_cancel_count(n: int, given: int) -> Msg:
    """A pick removing ``n`` dice needs ``n`` grace dice in "cancel" (the plural by ``n``)."""
    return Tn("This pick removes %(count)s die, so \"cancel\" must list exactly %(count)s of your "
              "grace dice, not %(given)s.",
              "This pick removes %(count)s dice, so \"cancel\" must list exactly %(count)s of your "
              "grace dice, not %(given)s.", n, count=n, given=given)


class OutOfRolls(RulesError):
    """A scripted dice source (the scenario runner's ``rolls``) ran dry."""

    code = "OUT_OF_ROLLS"


__all__ = [
    "EngineError", "IllegalOrder", "InvalidConfig", "InvalidOrder", "OutOfRolls", "RulesError",
]
