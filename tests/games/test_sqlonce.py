"""``games.lib.sqlonce``: the match page's three queries compiled once per process give
what the ORM gives, fall back to the ORM when a queryset's parameters are not one id, and
are compiled again when what shapes them (an annotation registered late) changes."""

from __future__ import annotations

import pytest
from django.db.models import Value
from django.db.models.functions import Concat

from games import registry
from games.lib import pages
from games.lib.sqlonce import CompiledOnce
from games.models import Match, Phase, Seat
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _fields(obj, names):
    return {name: getattr(obj, name) for name in names}


def test_the_pages_queries_answer_what_the_orm_answers():
    match = make_match(players=3)
    make_match(players=2)  # another match: never in the answer
    [compiled] = pages._PAGE_MATCH.objects(Match, match.pk)
    [orm] = list(pages._page_match_qs(match.pk))
    names = [f.attname for f in Match._meta.concrete_fields if f.attname not in pages.PAGE_DEFERRED]
    assert _fields(compiled, names) == _fields(orm, names)
    assert compiled.get_deferred_fields() >= set(pages.PAGE_DEFERRED)
    assert pages._SEAT_ROWS.rows(match.pk) == list(pages._SEAT_ROWS.build(match.pk))
    assert len(pages._SEAT_ROWS.rows(match.pk)) == 3
    [phase] = pages._OPEN_PHASE.objects(Phase, match.pk)
    [orm_phase] = list(pages._OPEN_PHASE.build(match.pk))
    names = [f.attname for f in Phase._meta.concrete_fields]
    assert _fields(phase, names) == _fields(orm_phase, names)
    assert phase.pressed_seats == orm_phase.pressed_seats


def test_a_queryset_with_other_parameters_goes_through_the_orm():
    match = make_match(players=2)
    other = CompiledOnce(lambda match_id: Seat.objects.filter(match_id=match_id, number__gte=1)
                         .values_list("number"))
    assert other.rows(match.pk) == [(1,)]
    assert other._compiled() is None  # two parameters: never compiled


def test_an_annotation_registered_after_first_use_is_not_lost(monkeypatch):
    match = make_match(players=2)
    [before] = pages._PAGE_MATCH.objects(Match, match.pk)
    assert not hasattr(before, "shout")
    registry.register_app(registry.AppHooks(
        label="shouter", page_annotations={"shout": lambda: Concat("name", Value("!"))}))
    try:
        [after] = pages._PAGE_MATCH.objects(Match, match.pk)
        assert after.shout == match.name + "!"
    finally:
        registry.unregister_app("shouter")
    [again] = pages._PAGE_MATCH.objects(Match, match.pk)
    assert not hasattr(again, "shout")


def test_the_history_and_the_deferred_json_answer_what_the_orm_answers():
    from games import selectors
    from games.services.phases import phase_close

    match = make_match(players=2, config={"rounds": 3})
    phase = selectors.current_phase(match)
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    history = pages._HISTORY.objects(Phase, match.pk)
    orm = list(pages._HISTORY.build(match.pk))
    assert history and [p.pk for p in history] == [p.pk for p in orm]
    names = [f.attname for f in Phase._meta.concrete_fields]
    assert [_fields(p, names) for p in history] == [_fields(p, names) for p in orm]
    [page_match] = pages._PAGE_MATCH.objects(Match, match.pk)
    pages.load_heavy(page_match)
    match.refresh_from_db()
    assert page_match.state == match.state and page_match.config == match.config
    assert isinstance(page_match.state, dict) and isinstance(page_match.config, dict)
