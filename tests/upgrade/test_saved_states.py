"""Upgrades while matches run (docs/operations.md "Upgrades"): the new release's engines
must read every state the previous release saved. ``tests/upgrade/states/<release>/``
holds states saved by a release (each game, several phases: the start, early and later
phases, a finished match where the bots get there); every release adds its own folder and
keeps the previous one. This test loads each with the engine of this code and plays on
from it: ``load``, ``dump`` (the state survives the round trip), the open phase, every
seat's view, the default orders and one ``resolve``.

To write the current release's folder (at release time), run::

    PBW_WRITE_STATES=1 .venv/bin/python -m pytest tests/upgrade -k write -q

which plays each game's demo match with bots through the real services and saves its
snapshots (``RELEASE`` is the version in pyproject.toml).
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from games import registry

HERE = Path(__file__).resolve().parent
STATES = HERE / "states"
ROOT = HERE.parents[1]
RELEASE = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
GAMES = ("killgame", "diceslayer", "sanguosha")
#: closes after which a state is kept (0: the start)
KEEP_AFTER = (0, 1, 3, 8, 20)


def saved_states() -> list[Path]:
    return sorted(STATES.glob("*/*.json"))


def test_every_game_has_saved_states_of_several_phases():
    files = saved_states()
    assert files, "no saved states: write them (module docstring)"
    for game in GAMES:
        mine = [f for f in files if f.name.startswith(f"{game}-")]
        assert len(mine) >= 3, (game, mine)


@pytest.mark.parametrize("path", saved_states(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_this_release_reads_and_plays_on_from_a_saved_state(path: Path):
    saved = json.loads(path.read_text())
    engine = registry.get_rules(saved["game"])
    state = engine.load(saved["state"])
    assert engine.dump(engine.load(engine.dump(state))) == engine.dump(state)
    spec = engine.current_phase(state)
    if spec is None:
        assert engine.outcome(state) is not None  # a finished match
        return
    for seat in saved["seats"]:
        engine.player_view(state, seat)
    engine.player_view(state, None)
    for seat in sorted(spec.awaited):
        for order in engine.default_orders(state, seat):
            try:
                state = engine.submit(state, seat, order).state
            except Exception:  # noqa: BLE001 - a refused default is skipped, as at a close
                continue
    resolved = engine.resolve(state, f"upgrade-{path.stem}")
    engine.dump(resolved.state)


@pytest.mark.django_db
@pytest.mark.skipif(not os.environ.get("PBW_WRITE_STATES"), reason="writes fixtures on demand")
def test_write_states_of_this_release():
    from django.contrib.auth import get_user_model

    from games.models import Match, Snapshot
    from games.services.matches import match_create, match_join, match_start
    from games.services.phases import phase_close

    folder = STATES / RELEASE
    folder.mkdir(parents=True, exist_ok=True)
    User = get_user_model()
    plays = [("killgame", "killgame", {}, None), ("sanguosha", "sanguosha", {}, None),
             ("diceslayer", "diceslayer-solo", {"variant": "solo"}, 1),
             ("diceslayer", "diceslayer-versus2", {"variant": "versus2"}, 2)]
    for slug, label, config, players in plays:
        entry = registry.get_game(slug)
        players = players or max(entry.min_seats, min(entry.hooks.demo_players,
                                                       entry.max_seats))
        match = match_create(game=slug, name=f"states {label}", min_players=players,
                             max_players=players, config=config, bots_enabled=True)
        for n in range(players):
            user, _ = User.objects.get_or_create(username=f"{label}-p{n}")
            match_join(match=match, user=user)
        match_start(match=match)
        for closes in range(max(KEEP_AFTER) + 1):
            match.refresh_from_db()
            if closes in KEEP_AFTER or match.status == Match.Status.FINISHED:
                seats = sorted(match.seats.values_list("number", flat=True))
                (folder / f"{label}-after-{closes:02d}-closes.json").write_text(json.dumps(
                    {"game": slug, "release": RELEASE, "closes": closes, "seats": seats,
                     "state": match.state}, indent=None, sort_keys=True) + "\n")
            if match.status == Match.Status.FINISHED:
                break
            phase = match.phases.filter(closed_at__isnull=True).first()
            phase_close(phase_id=phase.pk, force=True)
        assert Snapshot.objects.filter(match=match).count() >= 2
