"""The phase a state waits in, and the outcome of a finished match."""

from __future__ import annotations

from games.rules import Outcome, PhaseSpec, T

from diceslayer.engine.state import State

DEFAULT_TEXT_VERSUS = T(
    "If time runs out, the server picks for you the die (from your own field, then your "
    "opponent's) that removes the most dice now, ties to the lowest face; if none removes "
    "anything, the lowest die of your own field. It never spends the bomb.")
DEFAULT_TEXT_SOLO = T(
    "Solo has no deadline; a default move picks the die that removes the most dice now, "
    "else the lowest die on the plate.")


def current_phase(state: State) -> PhaseSpec | None:
    """``PhaseSpec(kind="turn", awaited={to_move})``; no deadline in solo (rules §5)."""
    if state.over:
        return None
    solo = state.variant.is_solo
    return PhaseSpec(kind="turn", awaited=frozenset({state.to_move}),
                     timing="none" if solo else "normal", close_when_all_checked_in=True,
                     checkin_final=False, turn=state.turn,
                     default_text=DEFAULT_TEXT_SOLO if solo else DEFAULT_TEXT_VERSUS)


def outcome(state: State) -> Outcome | None:
    """Winners and scores once over; solo has no winner (the final score is the result)."""
    if not state.over:
        return None
    scores = {i: p.score for i, p in enumerate(state.players)}
    if state.variant.is_solo:
        return Outcome(winners=frozenset(), scores=scores,
                       summary=f"Final score {state.players[0].score}.")
    if state.winner is None:
        return Outcome(winners=frozenset(), scores=scores,
                       summary=f"Draw at {scores[0]}–{scores[1]}.")
    # the result says why it was decided: an overflow loses whatever the scores (§4.4, §3.5)
    loser = 1 - state.winner
    why = {"overflow": (f"Player {loser + 1} ended a turn with 10 or more dice on the field, "
                        "which loses whatever the scores"),
           "target": f"Player {state.winner + 1} reached the target score of {state.target}",
           "exhausted": "no die was left to take, so the higher score won"}.get(
               state.end_reason, "")
    return Outcome(winners=frozenset({state.winner}), scores=scores,
                   summary=(f"Player {state.winner + 1} won: {why} ({scores[0]}–{scores[1]})."
                            if why else
                            f"Player {state.winner + 1} won ({scores[0]}–{scores[1]})."))
