"""Every page and fragment of every game, in the phase kinds the demo reaches (start, after
a close, finished), for the anonymous visitor, a stranger, a seated player, staff without a
seat and the director: never a 5xx (issue 10 "No page breaks for anyone").

The URLs come from the URL conf itself (every GET-able pattern whose only argument is a
match id, a game slug, or none), so a new page is covered without touching this test."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import registry
from games.models import Match, Phase
from games.services.matches import match_end
from games.services.phases import phases_close_due

pytestmark = pytest.mark.django_db

SKIP_PREFIXES = ("admin:", "accounts:logout", "accounts:verify", "otp")
#: one query string that reaches every fragment's branch (polls, diary turns, replay steps)
QUERY = {"v": "0", "s": "0", "c": "0", "a": "1", "turn": "0", "step": "0", "since": "0"}
FRAGMENT_WORDS = ("poll", "board", "fragment", "diary", "table")


def _patterns(resolver: URLResolver | None = None, ns: str = ""):
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            inner = f"{ns}{p.namespace}:" if p.namespace else ns
            yield from _patterns(p, inner)
        elif isinstance(p, URLPattern) and p.name:
            yield f"{ns}{p.name}", set(p.pattern.converters) | set(
                getattr(p.pattern, "regex").groupindex)


def urls_for(matches: list[Match]) -> list[str]:
    urls = []
    for name, params in sorted(set((n, frozenset(p)) for n, p in _patterns())):
        if name.startswith(SKIP_PREFIXES):
            continue
        if not params:
            try:
                urls.append(reverse(name))
            except Exception:  # noqa: BLE001 - a pattern that needs more than we know
                pass
        elif params == {"match_id"}:
            for m in matches:
                try:
                    urls.append(reverse(name, kwargs={"match_id": m.pk}))
                except Exception:  # noqa: BLE001
                    pass
        elif params == {"slug"}:
            for g in registry.all_games():
                urls.append(reverse(name, kwargs={"slug": g.slug}))
    for m in matches:
        urls.append(reverse("admin:games_match_change", args=[m.pk]))
        urls.append(f"/join/{m.invite_code}/")
    return urls


def _client(user) -> Client:
    c = Client(raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    return c


def _render_all(matches, people) -> list[tuple]:
    bad = []
    urls = urls_for(matches)
    for role, user in people.items():
        c = _client(user)
        for url in urls:
            hxs = [{}] + ([{"HTTP_HX_REQUEST": "true"}]
                          if any(w in url for w in FRAGMENT_WORDS) else [])
            for hx in hxs:
                resp = c.get(url, QUERY, **hx)
                if resp.status_code >= 500:
                    bad.append((role, url, bool(hx), resp.status_code))
    return bad


def test_every_page_and_fragment_for_every_role_in_every_phase_kind(settings):
    from games.management.commands.run import seed_demo

    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    matches = list(Match.objects.order_by("pk"))
    assert {m.game for m in matches} >= {"killgame", "diceslayer", "sanguosha"}
    User = get_user_model()
    people = {"anon": None,
              "stranger": User.objects.create_user("stranger", "s@example.com", "pw"),
              "player": User.objects.get(username="demo1"),
              "staff": User.objects.create_user("staffer", "t@example.com", "pw",
                                                is_staff=True),
              "director": User.objects.get(username="admin")}
    bad = _render_all(matches, people)
    # the next phase kind of every match: close what is open at its deadline
    for phase in Phase.objects.filter(closed_at__isnull=True, deadline_at__isnull=False):
        phases_close_due(now=phase.deadline_at - timedelta(seconds=30))
        phases_close_due(now=phase.deadline_at + timedelta(seconds=1))
    bad += _render_all(matches, {k: people[k] for k in ("player", "director")})
    for m in Match.objects.filter(status=Match.Status.RUNNING):
        match_end(match=m, actor=people["director"], reason="all-pages test")
    bad += _render_all(matches, {k: people[k] for k in ("anon", "player")})
    assert not bad, bad[:20]
