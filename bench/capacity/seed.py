"""The bench's players: Kill Game matches of 12 seats, seeded through the real services in
the bench's own database (run inside Django with the production settings, by
``manage.py bench_capacity --seed-into FILE``).

Accounts are made in bulk (an unusable password, a confirmed address: production lets
only confirmed players join), each match through ``match_create`` / ``match_join`` /
``match_start`` as the lobby does, each player logged in with a session of the deployed
session engine. The file written lists, per player, the session key, the match page and
the address its requests come from (the proxy's ``X-Forwarded-For``: per-address throttles
see one player each, as behind the real proxy).

The start's emails are marked sent: the workers begin idle, and what they do during the
bench is what the players' actions make them do.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

SEATS = 12


def seed(matches: int, path: str, offset: int = 0) -> dict[str, Any]:
    """``matches`` matches (numbered from ``offset``: several seeds run side by side),
    their players written to ``path``."""
    from django.contrib.auth import (BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY,
                                     get_user_model)
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.base import SessionBase
    from django.utils.module_loading import import_string
    from django.utils.timezone import now as timezone_now
    from django.conf import settings

    from accounts.models import Profile
    from games.models import Match, Notification
    from games.services.matches import match_create, match_join, match_start

    started = time.monotonic()
    User = get_user_model()
    stamp = secrets.token_hex(3)
    count = matches * SEATS
    unusable = make_password(None)  # "!" + random: no password login, a valid hash for sessions
    users = User.objects.bulk_create(
        [User(username=f"cap{stamp}_{i}", email=f"cap{stamp}_{i}@example.com",
              password=unusable) for i in range(count)], batch_size=1000)
    now = timezone_now()
    Profile.objects.bulk_create([Profile(user=u, email_verified_at=now) for u in users],
                                batch_size=1000)
    users_s = time.monotonic() - started
    store_class = import_string(settings.SESSION_ENGINE + ".SessionStore")
    backend = settings.AUTHENTICATION_BACKENDS[-1]
    players: list[dict[str, Any]] = []
    made: list[int] = []
    for m in range(matches):
        seated = users[m * SEATS:(m + 1) * SEATS]
        match = match_create(game="killgame", name=f"Capacity {offset + m}", created_by=seated[0],
                             config={"max_players": SEATS, "min_players": 2},
                             min_players=2, max_players=SEATS)
        for user in seated:
            match_join(match=match, user=user)
        match_start(match=match, actor=seated[0])
        made.append(match.pk)
        for user in seated:
            store: SessionBase = store_class()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = backend
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            n = offset * SEATS + len(players)
            players.append({"user": user.pk, "match": match.pk, "session": store.session_key,
                            "page": f"/m/{match.pk}/",
                            "ip": f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"})
    Notification.objects.filter(sent_at__isnull=True).update(sent_at=timezone_now())
    running = Match.objects.filter(pk__in=made, status=Match.Status.RUNNING).count()
    with open(path, "w") as fh:
        json.dump({"players": players}, fh)
    return {"matches": matches, "running": running, "accounts": count,
            "seconds": round(time.monotonic() - started, 1), "accounts_seconds": round(users_s, 1)}
