"""The scenario runner: ``python -m diceslayer.engine.scenario < in.json > out.json``.

Reads one scenario (docs/scenarios.md, "Dice Slayer") on standard input, sets up the
position it describes (the moment after the mover's roll-in), plays its ``moves`` with
the dice of ``rolls`` in order, and prints the resulting position as JSON with sorted
keys. An illegal move stops the run: the output then holds ``error`` (the message a
player would see) and ``error_at`` (the move's index) and describes the position before
that move. A malformed scenario (unknown field, wrong type, impossible position, too few
``rolls``) exits with status 2 and a message on standard error, never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Mapping, TextIO

from games.rules import RulesError

from diceslayer.engine.errors import OutOfRolls
from diceslayer.engine.orders import ORDER_KEYS, check_order, parse_order
from diceslayer.engine.rules.dice import ScriptedDice
from diceslayer.engine.rules.resolve import apply_order, settle_versus1
from diceslayer.engine.serialize import check_position, faces_of, player_from_json
from diceslayer.engine.state import VERSUS1_TARGET, State, Variant

TOP_KEYS = frozenset({"variant", "players", "to_move", "bomb", "target", "rolls", "moves"})


class MalformedScenario(ValueError):
    """The scenario itself is wrong (exit status 2)."""


def _check_move_shape(i: int, move: Any) -> None:
    """Reject a move whose *shape* is wrong; a face out of 1–6 is a player's error."""
    where = f"moves[{i}]"
    if not isinstance(move, Mapping):
        raise MalformedScenario(f"{where} must be an object such as {{\"pick\": 4}}")
    unknown = set(move) - ORDER_KEYS
    if unknown:
        raise MalformedScenario(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    actions = [k for k in ("pick", "wild", "bomb") if k in move]
    if len(actions) != 1:
        raise MalformedScenario(f"{where} needs exactly one of \"pick\", \"wild\", \"bomb\"")
    for key in actions:
        if isinstance(move[key], bool) or not isinstance(move[key], int):
            raise MalformedScenario(f"{where}.{key} must be a whole number")
    if "from" in move and move["from"] not in ("own", "opponent"):
        raise MalformedScenario(f"{where}.from must be \"own\" or \"opponent\"")
    if "cancel" in move and move["cancel"] is not None:
        items = move["cancel"]
        if not isinstance(items, list) or any(
                isinstance(x, bool) or not isinstance(x, int) for x in items):
            raise MalformedScenario(f"{where}.cancel must be a list of whole numbers")


def build(scenario: Any) -> tuple[State, list[int], list[Any]]:
    """The starting state, the rolls and the moves of a scenario (or MalformedScenario)."""
    if not isinstance(scenario, Mapping):
        raise MalformedScenario("the scenario must be a JSON object")
    unknown = set(scenario) - TOP_KEYS
    if unknown:
        raise MalformedScenario(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}")
    for key in ("variant", "players"):
        if key not in scenario:
            raise MalformedScenario(f"missing field \"{key}\"")
    try:
        variant = Variant(scenario["variant"])
    except (ValueError, TypeError):
        raise MalformedScenario(
            "variant must be one of solo, solo_wild, versus1, versus2") from None
    players_raw = scenario["players"]
    if not isinstance(players_raw, list):
        raise MalformedScenario("players must be a list")
    to_move = scenario.get("to_move", 0)
    if isinstance(to_move, bool) or not isinstance(to_move, int):
        raise MalformedScenario("to_move must be a seat number")
    bomb_raw = scenario.get("bomb", "neutral")
    if bomb_raw not in ("neutral", 0, 1) or isinstance(bomb_raw, bool):
        raise MalformedScenario("bomb must be \"neutral\", 0 or 1")
    target = scenario.get("target")
    if target is not None:
        if variant is not Variant.VERSUS2:
            raise MalformedScenario("target applies only to versus2")
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise MalformedScenario("target must be a positive whole number or null")
    rolls = scenario.get("rolls", [])
    moves = scenario.get("moves", [])
    if not isinstance(moves, list):
        raise MalformedScenario("moves must be a list")
    try:
        rolls_t = faces_of(rolls, "rolls")
        players = tuple(player_from_json(p, f"players[{i}]") for i, p in enumerate(players_raw))
        state = State(
            variant=variant, players=players, to_move=to_move,
            bomb=None if bomb_raw == "neutral" else int(bomb_raw),
            target=VERSUS1_TARGET if variant is Variant.VERSUS1 else target,
        )
        check_position(state)
    except ValueError as exc:
        raise MalformedScenario(str(exc)) from None
    for i, move in enumerate(moves):
        _check_move_shape(i, move)
    return state, list(rolls_t), moves


def result_of(state: State, error: str | None = None,
              error_at: int | None = None) -> dict[str, Any]:
    """The output document of docs/scenarios.md."""
    return {
        "over": state.over,
        "winner": state.winner,
        "to_move": state.to_move,
        "bomb": "neutral" if state.bomb is None else state.bomb,
        "players": [{"plate": sorted(p.plate), "stock": list(p.stock), "score": p.score,
                     "wild": p.wild, "grace": sorted(p.grace)} for p in state.players],
        "error": error,
        "error_at": error_at,
    }


def run(scenario: Any) -> dict[str, Any]:
    """Play a scenario; raises MalformedScenario for a malformed one (incl. too few rolls)."""
    state, rolls, moves = build(scenario)
    dice = ScriptedDice(rolls)
    try:
        state, _ = settle_versus1(state, dice)
        for i, move in enumerate(moves):
            try:
                order = parse_order(move)
                check_order(state, state.to_move, order)
            except RulesError as exc:
                return result_of(state, exc.reason, i)
            state, _ = apply_order(state, order, dice)
    except OutOfRolls as exc:
        raise MalformedScenario(exc.reason) from None
    return result_of(state)


def main(stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Read stdin, print the result; return the exit status (0 or 2)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        text = stdin.read()
        try:
            scenario = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MalformedScenario(f"not valid JSON: {exc}") from None
        result = run(scenario)
    except MalformedScenario as exc:
        print(f"malformed scenario: {exc}", file=stderr)
        return 2
    except Exception as exc:  # never a traceback (docs/scenarios.md contract)
        print(f"malformed scenario: {type(exc).__name__}: {exc}", file=stderr)
        return 2
    stdout.write(json.dumps(result, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
