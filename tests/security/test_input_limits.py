"""No 5xx on junk (issue 14): JSON is bounded in size and depth before it is parsed (the
API, the generic order form, the new-match form's JSON settings such as Kill Game's
prices, Three Kingdoms Kill's ask form), and dates are range-checked."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.lib import safejson
from tests.games.views.conftest import open_phase

NESTED = "[" * 3000 + "]" * 3000
NESTED_OBJ = '{"a":' * 3000 + "1" + "}" * 3000


def test_depth_counts_brackets_outside_strings_only():
    assert safejson.depth('{"a": [1, {"b": "[[[[["}]}') == 3
    assert safejson.depth('"\\"[[["') == 0
    assert safejson.depth("[]" * 1000) == 1
    assert safejson.depth(NESTED) == 3000


@pytest.mark.parametrize("raw", [NESTED, NESTED_OBJ, "NaN", "[Infinity]", "{", b"\xc3\x28",
                                 "1" * 5000, "[" + "1," * 40000 + "1]"])
def test_loads_refuses_with_a_reason(raw):
    with pytest.raises(safejson.JsonRefused) as exc:
        safejson.loads(raw)
    assert str(exc.value)


def test_loads_accepts_ordinary_json():
    value = {"prices": {"medkit": 3}, "list": [[1, 2], [3, [4, [5]]]], "s": "[[[[[[["}
    assert safejson.loads(json.dumps(value)) == value


@pytest.mark.django_db
@pytest.mark.parametrize("body", [NESTED, NESTED_OBJ, '{"order": ' + NESTED + "}"])
def test_api_refuses_deep_json_with_400(body, running_match, player_client):
    url = reverse("games:api-order-submit", args=[running_match.pk])
    before = running_match.version
    resp = player_client.post(url, body, content_type="application/json")
    assert resp.status_code == 400, resp.content[:300]
    assert resp.json()["error"]["code"] == "BAD_JSON"
    assert "nested deeper" in resp.json()["error"]["message"]
    running_match.refresh_from_db()
    assert running_match.version == before


@pytest.mark.django_db
def test_generic_order_form_refuses_deep_json(running_match, player_client):
    phase = open_phase(running_match)
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": '{"guess": ' + "[" * 5000 + "]" * 5000 + "}",
                               "phase_id": phase.pk, "version": running_match.version})
    assert 400 <= resp.status_code < 500
    assert b"nested deeper" in resp.content


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["cfg_prices", "cfg_weapons", "cfg_rewards"])
def test_killgame_new_match_form_refuses_deep_json(field, player_client):
    url = reverse("games:match-create-game", args=["killgame"])
    assert player_client.get(url).status_code == 200
    resp = player_client.post(url, {"name": "deep", "min_players": 2, "max_players": 4,
                                    "timezone": "UTC", field: NESTED})
    assert resp.status_code in (200, 400), resp.status_code
    assert b"nested deeper" in resp.content
    from games.models import Match

    assert not Match.objects.filter(name="deep").exists()


@pytest.mark.django_db
def test_sanguosha_ask_form_refuses_deep_json():
    from django import forms
    from django.http import QueryDict

    from sanguosha.forms import order_from_post

    post = QueryDict(mutable=True)
    post["pick"] = NESTED
    with pytest.raises(forms.ValidationError):
        order_from_post(post)


@pytest.mark.django_db
@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "1999-12-31"])
def test_daily_far_days_are_404_not_500(day, player_client):
    resp = player_client.get(reverse("diceslayer:daily-day", args=[day]))
    assert resp.status_code == 404


@pytest.mark.django_db
def test_daily_today_still_answers(player_client):
    from diceslayer import services

    day = services.today().isoformat()
    assert player_client.get(reverse("diceslayer:daily-day", args=[day])).status_code == 200
