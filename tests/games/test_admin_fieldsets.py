"""The match page's fieldsets rendered in Python (games/lib/adminform.py) are the markup
Django's ``admin/includes/fieldset.html`` renders for them: on a formed match (most fields
read-only), a forming one (every setting a widget) and a refused POST (errors shown)."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.lib.adminform import render_fieldset
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _norm(html: str) -> str:
    html = re.sub(r">\s+", ">", str(html))
    html = re.sub(r"\s+<", "<", html)
    return re.sub(r"\s+", " ", html).strip()


def _django(fieldset, index: int) -> str:
    return render_to_string("admin/includes/fieldset.html", {
        "fieldset": fieldset, "heading_level": 2, "prefix": "fieldset", "id_prefix": 0,
        "id_suffix": index})


def _same_as_django(response) -> int:
    assert response.status_code == 200
    fieldsets = list(response.context["adminform"])
    assert fieldsets
    for index, fieldset in enumerate(fieldsets):
        fast = render_fieldset(fieldset, index)
        assert fast is not None  # every fieldset of the match page is one-field lines
        assert _norm(fast) == _norm(_django(fieldset, index)), fieldset.name
    return len(fieldsets)


def test_a_formed_matchs_fieldsets_are_djangos_markup(client, director):
    client.force_login(director)
    match = make_match(players=3)
    response = client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert _same_as_django(response) == 5
    page = response.content.decode()
    assert 'class="form-row field-diary"' in page and 'class="readonly"' in page
    for seat in match.seats.select_related("user"):
        assert seat.user.username in page


def test_a_forming_matchs_widgets_and_errors_are_djangos_markup(client, director):
    client.force_login(director)
    match = make_match(players=1, start=False)
    url = reverse("admin:games_match_change", args=[match.pk])
    _same_as_django(client.get(url))
    refused = client.post(url, {"name": "", "min_players": "many", "max_players": "2",
                                "timezone": "UTC", "config": "{}", "schedule": "{}"})
    assert _same_as_django(refused) == 5
    page = refused.content.decode()
    assert 'class="form-row errors field-name"' in page
    assert 'class="form-row errors field-min_players"' in page


def test_a_fieldset_of_several_fields_a_line_is_left_to_the_template(client, director):
    client.force_login(director)
    match = make_match(players=1)
    response = client.get(reverse("admin:games_match_change", args=[match.pk]))
    fieldset = list(response.context["adminform"])[3]
    fieldset.fields = [tuple(fieldset.fields[:2])] + list(fieldset.fields[2:])
    assert render_fieldset(fieldset, 3) is None
