"""Plain factories for framework tests (no factory_boy: a few functions are enough)."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model

from games.models import Match
from games.services.matches import match_create, match_join, match_start

_counter = itertools.count(1)


def make_user(username: str | None = None, *, email: str | None = None, staff: bool = False,
              **profile: Any):
    """A user with an email address and a profile (extra kwargs set profile fields)."""
    n = next(_counter)
    username = username or f"player{n}"
    user = get_user_model().objects.create_user(
        username=username, email=email if email is not None else f"{username}@example.com",
        password="pw-" + username, is_staff=staff, is_superuser=staff)
    if profile:
        for key, value in profile.items():
            setattr(user.profile, key, value)
        user.profile.save()
    return user


def make_match(*, game: str = "guess", players: int = 2, config: dict | None = None,
               schedule: dict | None = None, start: bool = True, now=None, users=None,
               **kwargs: Any) -> Match:
    """A match of ``game`` with ``players`` joined (started unless ``start=False``)."""
    match = match_create(game=game, name=kwargs.pop("name", f"match {next(_counter)}"),
                         config=config or {}, schedule=schedule, **kwargs)
    users = users or [make_user() for _ in range(players)]
    for user in users:
        match_join(match=match, user=user, invite_code=match.invite_code)
    if start:
        match_start(match=match, now=now)
    match.refresh_from_db()
    return match
