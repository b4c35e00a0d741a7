"""What a push or a webhook says, built from an outbox row: short, in the reader's
language and time zone, linking the match. Only public facts of the match (its name,
game, phase kind, turn, deadline, whether it awaits *this* reader) — never the diary, a
hand, an order or who else is awaited — so the same text is safe on a phone's lock screen
and, for a match's own webhook (``group_*`` kinds), in a group's shared channel.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.profiles import profile_for
from games.emails import match_url
from games.lib.dates import format_local
from games.models import Notification
from games.registry import UnknownGame, get_game
from games.templatetags.games_tags import phase_label

K = Notification.Kind


def delivery_id(row: Notification) -> str:
    """The same for every attempt at this row: receivers drop repeats by it."""
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    stamp = int(row.created_at.timestamp()) if row.created_at else 0
    return f"{row.pk}.{stamp}@{host}"


def _game_name(slug: str) -> str:
    try:
        return get_game(slug).name
    except UnknownGame:
        return slug


def facts(row: Notification, zone: str = "UTC") -> dict[str, Any]:
    """The public facts of the row's event (JSON-able)."""
    match, phase = row.match, row.phase
    out: dict[str, Any] = {"match": None, "phase": None}
    if match is not None:
        out["match"] = {"id": match.pk, "name": match.name, "game": match.game,
                        "game_name": _game_name(match.game), "url": match_url(match)}
    if phase is not None and row.kind not in (K.MATCH_FINISHED, "group_end"):
        out["phase"] = {"number": phase.number, "kind": phase.kind, "turn": phase.turn,
                        "label": str(phase_label(phase.kind)),
                        "deadline": phase.deadline_at.isoformat() if phase.deadline_at else None,
                        "deadline_local": (format_local(phase.deadline_at, zone)
                                           if phase.deadline_at else None)}
    return out


def event_name(row: Notification) -> str:
    """The event a webhook receiver sees: ``my_move``, ``phase_opened``, ``match_started``,
    ``match_finished`` (a match's own webhook: the last three)."""
    if row.kind in (K.NEW_PHASE, K.YOUR_TURN):
        return "my_move" if row.payload.get("awaited", row.kind == K.YOUR_TURN) else "phase_opened"
    return {"group_phase": "phase_opened", "group_start": "match_started",
            "group_end": "match_finished", K.MATCH_STARTED: "match_started",
            K.MATCH_FINISHED: "match_finished"}.get(row.kind, row.kind)


def texts(row: Notification, info: dict[str, Any]) -> tuple[str, str]:
    """(title, body) in the active language."""
    name = info["match"]["name"] if info["match"] else ""
    phase = info["phase"]
    event = event_name(row)
    if event == "test":
        return _("A test from %(site)s: this webhook works.") % {"site": settings.SITE_NAME}, ""
    if event == "my_move":
        title = _("Your move: %(match)s") % {"match": name}
    elif event == "phase_opened":
        title = _("New phase: %(match)s") % {"match": name}
    elif event == "match_started":
        title = _("The match has started: %(match)s") % {"match": name}
    else:
        title = _("The match is over: %(match)s") % {"match": name}
    if phase is None:
        body = info["match"]["game_name"] if info["match"] else ""
    elif phase["deadline_local"]:
        body = _("%(phase)s, turn %(turn)s · until %(deadline)s") % {
            "phase": phase["label"], "turn": phase["turn"], "deadline": phase["deadline_local"]}
    else:
        body = _("%(phase)s, turn %(turn)s") % {"phase": phase["label"], "turn": phase["turn"]}
    return title, body


def reader_locale(row: Notification) -> tuple[str, str]:
    """(language, zone) of the reader; a match's own webhook speaks the site's default
    language in UTC (a group has no one language)."""
    if row.kind in ("group_phase", "group_start", "group_end"):
        return settings.LANGUAGE_CODE, "UTC"
    profile = profile_for(row.recipient)
    return profile.language, profile.timezone


def push_payload(row: Notification) -> dict[str, Any]:
    """The JSON the service worker shows: title, body, the match URL and a tag per match
    (a newer push replaces an older one of the same match)."""
    lang, zone = reader_locale(row)
    with translation.override(lang):  # the phase's label too, in the reader's language
        info = facts(row, zone)
        title, body = texts(row, info)
    url = info["match"]["url"] if info["match"] else settings.SITE_URL + "/"
    return {"title": title, "body": body, "url": url,
            "tag": f"match-{row.match_id}" if row.match_id else "site",
            "event": event_name(row), "id": delivery_id(row)}


def webhook_document(row: Notification) -> dict[str, Any]:
    """The generic JSON delivery: id, event, time, the public facts and a sentence."""
    lang, zone = reader_locale(row)
    with translation.override(lang):  # labels in the reader's language; ids stay as they are
        info = facts(row, zone)
        title, body = texts(row, info)
    return {"id": delivery_id(row), "event": event_name(row),
            "created_at": row.created_at.isoformat() if row.created_at else None,
            "match": info["match"], "phase": info["phase"],
            "text": f"{title} — {body}" if body else title}
