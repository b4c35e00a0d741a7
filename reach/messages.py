"""What a push or a webhook says, built from an outbox row: short, in the reader's
language and time zone, linking the match. Only public facts of the match (its name,
game, phase kind, turn, deadline, whether it awaits *this* reader) — never the diary, a
hand, an order or who else is awaited — so the same text is safe on a phone's lock screen
and, for a match's own webhook (``group_*`` kinds), in a group's shared channel. Match news
say the sentences of the news email (``games.emails.news_items``) without its diary lines;
a match's own webhook carries only the news everyone at the table reads
(``reach.policy.GROUP_NEWS_EVENTS``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.profiles import profile_for
from games.emails import match_url, news_items
from games.lib.dates import format_local
from games.models import Notification
from games.registry import UnknownGame, get_game
from games.templatetags.games_tags import phase_label
from reach import policy

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
    ``match_finished``, ``match_news`` (a match's own webhook: the last four)."""
    if row.kind in (K.NEW_PHASE, K.YOUR_TURN):
        return "my_move" if row.payload.get("awaited", row.kind == K.YOUR_TURN) else "phase_opened"
    return {"group_phase": "phase_opened", "group_start": "match_started",
            "group_end": "match_finished", "group_news": "match_news",
            K.MATCH_STARTED: "match_started", K.MATCH_FINISHED: "match_finished",
            K.MATCH_NEWS: "match_news"}.get(row.kind, row.kind)


NEWS_KINDS = (K.MATCH_NEWS, "group_news")


def news_events(row: Notification) -> list[dict[str, Any]]:
    """The pieces of news a news row carries; a match's own webhook only ever the ones
    everyone at the table reads (checked again here, whatever the row says)."""
    if row.kind == "group_news":
        return policy.group_news_events(row.payload)
    return [e for e in (row.payload.get("events") or []) if isinstance(e, dict)]


def news_said(row: Notification, zone: str) -> list[dict[str, str]]:
    """Each piece of news as ``{"event", "title", "text"}`` in the active language: the
    sentences of the news email (``games.emails.news_items``), without the diary lines a
    death email shows (a push is read on a lock screen)."""
    out = []
    for e in news_events(row):
        if e.get("event") == "died":
            out.append({"event": "died", "title": _("You died"),
                        "text": _("You died in the %(phase)s phase of turn %(turn)s.") % {
                            "phase": phase_label(e.get("phase_kind") or ""),
                            "turn": e.get("turn", "")}})
            continue
        for item in news_items(row, [e], zone, translation.get_language() or "en"):
            out.append({"event": str(e.get("event")), "title": str(item["subject"]),
                        "text": str(item["text"])})
    return out


def texts(row: Notification, info: dict[str, Any], zone: str = "UTC") -> tuple[str, str]:
    """(title, body) in the active language."""
    name = info["match"]["name"] if info["match"] else ""
    phase = info["phase"]
    event = event_name(row)
    if event == "test":
        return _("A test from %(site)s: this webhook works.") % {"site": settings.SITE_NAME}, ""
    if event == "match_news":
        said = news_said(row, zone)
        if len(said) == 1:
            title = _("%(news)s: %(match)s") % {"news": said[0]["title"], "match": name}
        else:
            title = ngettext("%(count)d update: %(match)s", "%(count)d updates: %(match)s",
                             len(said)) % {"count": len(said), "match": name}
        return title, " ".join(item["text"] for item in said)
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
    if row.kind in policy.GROUP_KINDS:
        return settings.LANGUAGE_CODE, "UTC"
    profile = profile_for(row.recipient)
    return profile.reading_language(), profile.timezone


def _said(row: Notification) -> tuple[dict[str, Any], str, str]:
    """(facts, title, body) of ``row`` in its reader's language and zone. Kept on the
    row's match object for the batch (the outbox loads one per match): a phase fans out to
    many rows that say the same thing in the same few languages."""
    lang, zone = reader_locale(row)
    event = event_name(row)
    memo = row.match.__dict__.setdefault("_reach_said", {}) if row.match is not None else {}
    key = (lang, zone, event, row.kind, row.phase_id,
           json.dumps(news_events(row), sort_keys=True) if row.kind in NEWS_KINDS else "")
    found = memo.get(key)
    if found is None:
        with translation.override(lang):  # the phase's label too, in the reader's language
            info = facts(row, zone)
            title, body = texts(row, info, zone)
            if row.kind in NEWS_KINDS:
                info = {**info, "news": news_said(row, zone)}
        found = memo[key] = (info, title, body)
    return found


def push_payload(row: Notification) -> dict[str, Any]:
    """The JSON the service worker shows: title, body, the match URL and a tag per match
    (a newer push replaces an older one of the same match)."""
    info, title, body = _said(row)
    url = info["match"]["url"] if info["match"] else settings.SITE_URL + "/"
    tag = f"match-{row.match_id}" if row.match_id else "site"
    if row.kind in NEWS_KINDS:  # news never replace the "your move" of the same match
        tag += "-news"
    return {"title": title, "body": body[:400], "url": url, "tag": tag,
            "event": event_name(row), "id": delivery_id(row)}


def webhook_document(row: Notification) -> dict[str, Any]:
    """The generic JSON delivery: id, event, time, the public facts and a sentence."""
    info, title, body = _said(row)
    document = {"id": delivery_id(row), "event": event_name(row),
                "created_at": row.created_at.isoformat() if row.created_at else None,
                "match": info["match"], "phase": info["phase"],
                "text": f"{title} — {body}" if body else title}
    if "news" in info:
        document["news"] = info["news"]
    return document
