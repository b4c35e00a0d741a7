"""The all-pages walk (tests/games/test_all_pages.py) in Japanese: every page and fragment of
every game, for a seated player and the director, at the demo's start, after a close and
finished, shows no English word of the project's own catalogue outside names (issue 26).

The admin (Django's own pages) is left out; player and match names are names."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Match, Phase
from games.services.matches import match_end
from games.services.phases import phases_close_due
from killgame.models import GameMap
from tests.games.test_all_pages import FRAGMENT_WORDS, QUERY, urls_for
from tests.test_done_when_i18n import english_in, english_words

pytestmark = pytest.mark.django_db
LANG = "ja"


def _reader(user) -> Client:
    from accounts.models import Profile

    Profile.objects.update_or_create(user=user, defaults={"language": LANG})
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=LANG)
    c.force_login(user)
    return c


def _walk(matches, people, vocabulary, names) -> list[str]:
    from django.core.cache import caches
    from django.conf import settings

    bad = []
    urls = [u for u in urls_for(matches)
            if not u.startswith("/admin") and not u.endswith("/guess/")
            and not u.startswith("/api/docs/")]  # the API's reference is for developers
    for role, user in people.items():
        c = _reader(user)
        for alias in settings.CACHES:
            caches[alias].clear()
        for url in urls:
            hxs = [{}] + ([{"HTTP_HX_REQUEST": "true"}]
                          if any(w in url for w in FRAGMENT_WORDS) else [])
            for hx in hxs:
                resp = c.get(url, QUERY, **hx)
                if resp.status_code != 200 or "html" not in resp.get("Content-Type", ""):
                    continue
                bad += [f"{role} {url}{' (htmx)' if hx else ''}: {b}"
                        for b in english_in(resp.content.decode(), vocabulary, names)]
    return bad


def test_every_page_of_every_game_reads_japanese(settings):
    from games.management.commands.run import seed_demo

    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    matches = [m for m in Match.objects.order_by("pk")
               if m.game in ("killgame", "diceslayer", "sanguosha")]
    User = get_user_model()
    people = {"player": User.objects.get(username="demo1"),
              "director": User.objects.get(username="admin")}
    vocabulary = english_words(LANG)
    names = set(User.objects.values_list("username", flat=True))
    names |= set(Match.objects.values_list("name", flat=True))
    # time zones are place names (the profile's and the new-match form's lists); the tests'
    # guess-a-number game is no game of the project
    zones = zoneinfo.available_timezones()
    names |= {z.replace("_", " ") for z in zones}
    # the picker groups by region and shows the rest ("Indiana / Tell City")
    names |= {" / ".join(z.split("/")[1:]).replace("_", " ") for z in zones if "/" in z}
    names |= {"Guess a Number", "all-pages test"}  # the director's own words stay his
    names |= set(GameMap.objects.values_list("name", flat=True))  # maps are named places
    bad = _walk(matches, people, vocabulary, names)
    for phase in Phase.objects.filter(closed_at__isnull=True, deadline_at__isnull=False):
        phases_close_due(now=phase.deadline_at - timedelta(seconds=30))
        phases_close_due(now=phase.deadline_at + timedelta(seconds=1))
    bad += _walk(matches, people, vocabulary, names)
    for m in Match.objects.filter(status=Match.Status.RUNNING):
        match_end(match=m, actor=people["director"], reason="all-pages test")
    bad += _walk(matches, {"player": people["player"]}, vocabulary, names)
    assert not bad, "\n".join(dict.fromkeys(bad))
