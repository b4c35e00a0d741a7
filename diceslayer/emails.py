"""The challenge email: the challenged player hears about a versus challenge.

Kind ``challenge`` on the framework's outbox (``games.Notification``; like press's
``message`` kind it is a game's own, plugged in through ``AppHooks`` in ``diceslayer/apps.py``;
its templates are ``diceslayer/templates/emails/challenge-*``). A challenge waits for
its opponent's answer as a move does, so it follows the reader's phase-email policy: sent
for "when it's my move" and "every phase", not for the daily digest or "off" (the
challenge is on their home page and the match page), and its one-click link turns phase
emails off. At send time it is dropped when the challenge is no longer open (answered,
withdrawn, expired) or the reader's policy changed meanwhile.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


from diceslayer.models import Challenge
from games.models import Notification

KIND = "challenge"


def _wanted(user) -> bool:
    from games.services.notifications import wants

    return wants(user, Notification.Kind.YOUR_TURN, awaited=True)


def challenge_notify(challenge: Challenge) -> Notification | None:
    """Inside the creating transaction: queue the email to the challenged player, if
    they want it (sent on commit, like every outbox row)."""
    from games.services.notifications import notification_create

    if not _wanted(challenge.opponent):
        return None
    return notification_create(recipient=challenge.opponent, kind=KIND, match=challenge.match,
                               payload={"challenge_id": challenge.pk},
                               check_preferences=False)


def ctx_challenge(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    """Who challenged the reader and until when (in the reader's zone) they can answer,
    and the link: the game's own page, which shows the challenged player Accept / Decline
    (the generic match page is for the seated, which the challenged player is not yet)."""
    from django.conf import settings
    from django.urls import reverse

    from games.lib.dates import format_local

    challenge = (Challenge.objects.select_related("challenger")
                 .filter(pk=n.payload.get("challenge_id")).first())
    out = {"challenger": challenge.challenger.get_username() if challenge else "",
           "expires": format_local(challenge.expires_at, zone) if challenge else ""}
    if n.match_id:
        out["match_url"] = settings.SITE_URL + reverse("diceslayer:play", args=[n.match_id])
    return out


def challenge_send_veto(rows: list[Notification], now: datetime) -> dict[int, str]:
    """``AppHooks.send_veto`` hook: a challenge email goes out only while the challenge is open
    and the reader still wants it."""
    mine = [r for r in rows if r.kind == KIND]
    if not mine:
        return {}
    pending = set(Challenge.objects.filter(
        pk__in=[r.payload.get("challenge_id") for r in mine], status=Challenge.Status.PENDING,
        expires_at__gt=now).values_list("pk", flat=True))
    out = {}
    for row in mine:
        if row.payload.get("challenge_id") not in pending:
            out[row.pk] = "the challenge is no longer open"
        elif not _wanted(row.recipient):
            out[row.pk] = "preferences"
    return out
