"""A minimal simultaneous game that lives only in the tests: "guess a number".

Each round every seat secretly guesses 1..100; at the close the seats nearest the
round's secret number (drawn from the seed) score a point. After ``rounds`` rounds the
highest score wins. It exercises every part of the engine protocol the framework uses:
hidden orders, simultaneous resolution, audiences, defaults, outcome, dump/load.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from games.rules import (ConfigField, Event, IllegalOrder, InvalidConfig, InvalidOrder, Outcome,
                         PhaseSpec, Resolution, Submitted)

SLUG = "guess"
NAME = "Guess a Number"
MIN_SEATS = 1
MAX_SEATS = 100


@dataclass(frozen=True, slots=True)
class State:
    seats: tuple[int, ...]
    rounds: int
    round: int = 1
    scores: tuple[int, ...] = ()
    guesses: tuple[tuple[int, int], ...] = ()   # (seat, guess), accepted this round
    timing: str = "schedule"
    over: bool = False
    crash: bool = False                          # tests: resolve raises (quarantine)


def config_schema() -> list[ConfigField]:
    return [
        ConfigField("rounds", "int", 3, label="Rounds", min=1, max=50),
        ConfigField("timing", "choice", "schedule", label="Deadlines",
                    choices=(("schedule", "Schedule"), ("check", "Check"), ("none", "None"))),
        ConfigField("crash", "bool", False, label="Crash on resolve (tests)"),
    ]


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {f.key: f.default for f in config_schema()}
    for key, value in config.items():
        if key not in out:
            raise InvalidConfig(f"Unknown setting {key!r}.", field=key)
        out[key] = value
    if not isinstance(out["rounds"], int) or isinstance(out["rounds"], bool) or not 1 <= out["rounds"] <= 50:
        raise InvalidConfig("Rounds must be a whole number from 1 to 50.", field="rounds")
    if out["timing"] not in {"schedule", "check", "none"}:
        raise InvalidConfig("Deadlines must be schedule, check or none.", field="timing")
    return out


def setup(config: Mapping[str, Any], seats: Sequence[int], seed: str) -> State:
    cfg = validate_config(config)
    return State(seats=tuple(seats), rounds=cfg["rounds"], scores=tuple(0 for _ in seats),
                 timing=cfg["timing"], crash=bool(cfg["crash"]))


def current_phase(state: State) -> PhaseSpec | None:
    if state.over:
        return None
    return PhaseSpec(kind="guess", awaited=frozenset(state.seats), timing=state.timing,
                     close_when_all_checked_in=True, turn=state.round,
                     default_text="No guess: you cannot score this round.")


def _check(state: State, seat: int, order: Mapping[str, Any]) -> int:
    if state.over:
        raise IllegalOrder("The match is over.", code="MATCH_OVER")
    if seat not in state.seats:
        raise IllegalOrder("You have no seat in this match.", code="NOT_A_PARTICIPANT")
    if set(order) != {"guess"}:
        raise InvalidOrder("An order is {\"guess\": a number from 1 to 100}.", field="guess")
    guess = order["guess"]
    if not isinstance(guess, int) or isinstance(guess, bool):
        raise InvalidOrder("Your guess must be a whole number.", field="guess")
    if not 1 <= guess <= 100:
        raise IllegalOrder("Guess a number from 1 to 100.", code="OUT_OF_RANGE", field="guess")
    return guess


def validate_order(state: State, seat: int, order: Mapping[str, Any]) -> None:
    _check(state, seat, order)


def submit(state: State, seat: int, order: Mapping[str, Any]) -> Submitted:
    guess = _check(state, seat, order)
    guesses = tuple(g for g in state.guesses if g[0] != seat) + ((seat, guess),)
    return Submitted(state=replace(state, guesses=guesses), done=False,
                     events=(Event("guess_saved", {"guess": guess}, frozenset({seat})),))


def default_orders(state: State, seat: int) -> list[dict[str, Any]]:
    return []


def bot_orders(state: State, seat: int, seed: str) -> list[dict[str, Any]]:
    return [{"guess": random.Random(f"{seed}|{state.round}|{seat}|bot").randint(1, 100)}]


def resolve(state: State, seed: str) -> Resolution:
    if state.crash:
        raise RuntimeError("guessgame configured to crash")
    secret = random.Random(f"{seed}|{state.round}|secret").randint(1, 100)
    events: list[Event] = []
    for seat, guess in state.guesses:
        events.append(Event("guess_revealed", {"seat": seat, "guess": guess}, frozenset({seat})))
    best = min((abs(g - secret) for _, g in state.guesses), default=None)
    winners = sorted(s for s, g in state.guesses if best is not None and abs(g - secret) == best)
    scores = list(state.scores)
    for seat in winners:
        scores[state.seats.index(seat)] += 1
    events.append(Event("round_over", {"round": state.round, "secret": secret,
                                       "winners": winners}))
    over = state.round >= state.rounds
    if over:
        events.append(Event("match_over", {"scores": scores}))
    new = replace(state, round=state.round + (0 if over else 1), scores=tuple(scores),
                  guesses=(), over=over)
    return Resolution(state=new, events=tuple(events))


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    mine = next((g for s, g in state.guesses if s == seat), None)
    return {"round": state.round, "rounds": state.rounds, "over": state.over,
            "scores": {str(s): sc for s, sc in zip(state.seats, state.scores)},
            "my_guess": mine, "guessed": len(state.guesses)}


def omniscient_view(state: State) -> dict[str, Any]:
    return {**player_view(state, None), "guesses": {str(s): g for s, g in state.guesses}}


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    top = max(state.scores, default=0)
    winners = frozenset(s for s, sc in zip(state.seats, state.scores) if sc == top)
    return Outcome(winners=winners, summary=f"Best score {top}.",
                   scores=dict(zip(state.seats, state.scores)))


def dump(state: State) -> dict[str, Any]:
    return {"seats": list(state.seats), "rounds": state.rounds, "round": state.round,
            "scores": list(state.scores), "guesses": [list(g) for g in state.guesses],
            "timing": state.timing, "over": state.over, "crash": state.crash}


def load(raw: Mapping[str, Any]) -> State:
    return State(seats=tuple(raw["seats"]), rounds=raw["rounds"], round=raw["round"],
                 scores=tuple(raw["scores"]), guesses=tuple((a, b) for a, b in raw["guesses"]),
                 timing=raw["timing"], over=raw["over"], crash=raw["crash"])


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None) -> str:
    d = event.data
    names = names or {}

    def who(seat: int) -> str:
        return "you" if seat == viewer else names.get(seat, f"seat {seat}")

    if event.kind == "guess_saved":
        return f"You guessed {d['guess']}."
    if event.kind == "guess_revealed":
        return f"Your guess was {d['guess']}." if d["seat"] == viewer else f"{who(d['seat'])} guessed {d['guess']}."
    if event.kind == "round_over":
        who_scored = ", ".join(who(s) for s in d["winners"]) or "nobody"
        return f"Round {d['round']}: the number was {d['secret']}; {who_scored} scored."
        return f"Round {d['round']}: the number was {d['secret']}; {who} scored."
    if event.kind == "match_over":
        return "The match is over."
    return event.kind
