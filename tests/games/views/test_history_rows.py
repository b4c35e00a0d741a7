"""The history's rows written in Python (``games_tags.history_rows``) say what the template
loop said: the same link, turn, phase label and closing time, in the reader's language and
time zone."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from games import selectors
from games.models import Phase
from games.services.phases import phase_close
from games.templatetags.games_tags import history_rows
from tests.factories import make_match

pytestmark = pytest.mark.django_db

OLD = Template('{% load games_tags %}{% for ph in history %}<tr><td><a href="/m/{{ match.pk }}/'
               '?phase={{ ph.number }}" title="This phase as you saw it">{{ ph.number }}</a>'
               '</td><td>{{ ph.turn }}</td><td>{{ ph.kind|phase_label }}</td><td>'
               '{{ ph.closed_at|date:"D j M, H:i" }}</td></tr>{% endfor %}')


def test_the_history_rows_are_the_template_loops_rows():
    match = make_match(players=2, config={"rounds": 4})
    for _ in range(3):
        phase = selectors.current_phase(match)
        phase_close(phase_id=phase.pk, now=phase.deadline_at)
    history = list(Phase.objects.filter(match=match, closed_at__isnull=False)
                   .order_by("-number"))
    assert len(history) == 3
    for lang in ("en", "it", "ja", "es"):
        for zone in ("UTC", "Asia/Tokyo", "America/New_York"):
            with translation.override(lang), timezone.override(zone):
                new = str(history_rows(history, match))
                old = OLD.render(Context({"history": history, "match": match}))
                assert re.sub(r' title="[^"]*"', "", new) == re.sub(
                    r' title="[^"]*"', "", old), (lang, zone)  # (the title: translated)
