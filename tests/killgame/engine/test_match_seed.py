"""§0.1: every stream is keyed on the match seed, whatever seed the caller passes."""

from __future__ import annotations

from killgame import engine


def _played(seed_for_resolve: str):
    state = engine.setup({"min_players": 2}, [0, 1, 2], "match-seed")
    for seat in (0, 1, 2):
        state = engine.submit(state, seat, {"type": "start_zone", "zone": "campi"}).state
    return engine.resolve(state, seed_for_resolve)


def test_resolve_uses_the_match_seed_kept_since_setup():
    a, b = _played("phase-seed-1"), _played("something-else")
    assert engine.dump(a.state) == engine.dump(b.state)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]


def test_the_seed_is_kept_across_dump_and_hidden_from_players():
    state = engine.setup({"min_players": 2}, [0, 1], "secret-seed-xyz")
    assert engine.load(engine.dump(state)).seed == "secret-seed-xyz"
    assert "secret-seed-xyz" not in str(engine.player_view(state, 0))
    assert "secret-seed-xyz" not in str(engine.player_view(state, None))
