"""Errors the Sanguosha engine raises on purpose (docs/style.md §16), with greppable messages
(``games.rules.Msg``: the refusal is said in the reader's language)."""

from __future__ import annotations

from games.rules import IllegalOrder, InvalidConfig, InvalidOrder, RulesError, T

EngineError = RulesError

NOT_AWAITED = T("You are not asked anything now.")
STALE = T("This ask has already closed (stale order).")
GAME_OVER = T("The game is over.")
ONE_KILL = T("Only one Kill per Play phase (one Kill per Play phase).")
EMPTY_CITY = T("Empty City: Zhuge Liang has no hand cards and cannot be targeted by a Kill or a "
               "Duel.")
HUMILITY = T("Humility: Lu Xun cannot be targeted by Snatch or Indulgence.")
NOT_YOURS = T("You do not hold that card.")
OUT_OF_RANGE = T("That target is out of range.")


class ScenarioNeedsRandom(RulesError):
    """The scenario runner needed a reshuffle (randomness it may not use)."""

    code = "NEEDS_RANDOM"


__all__ = ["EngineError", "IllegalOrder", "InvalidConfig", "InvalidOrder", "RulesError",
           "ScenarioNeedsRandom"]
