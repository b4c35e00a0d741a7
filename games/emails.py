"""One function per notification kind: build the email for an outbox row (docs/style.md §10).

Templates come in triples, ``emails/<kind>-subject.txt``, ``-body.txt`` and
``-body.html``. Every email carries a signed one-click unsubscribe link (``games.lib.
unsubscribe``) in the body and in ``List-Unsubscribe`` / ``List-Unsubscribe-Post``
headers (RFC 8058). Diary lines come from ``selectors.diary_for_seat`` — the reader's own
rows only — in the reader's language, and times in the reader's time zone.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from email.policy import Compat32
from email.utils import formataddr, parseaddr
from functools import lru_cache
from typing import Any, Callable

from django.conf import settings
from django.db.models import Q
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.profiles import profile_for
from games import registry, selectors
from games.registry import UnknownGame, get_game
from games.lib.dates import format_local
from games.lib.emailtext import (html_compact, html_fold, html_wrap, text_tidy, text_tidy_inner,
                                 widest)
from games.lib.text import outcome_text
from games.lib.unsubscribe import unsubscribe_url
from games.models import DiaryEntry, Match, Notification, Phase

K = Notification.Kind
log = logging.getLogger(__name__)


def match_url(match: Match | None) -> str:
    """The absolute URL (``SITE_URL``) where the reader plays ``match``: the game's own
    table page when it has one (``GameHooks.table_url_name``), else the match page."""
    if match is None:
        return settings.SITE_URL + "/"
    if "_email_url" not in match.__dict__:  # once per Match object (a batch's emails share it)
        match.__dict__["_email_url"] = _match_url(match)
    return match.__dict__["_email_url"]


def _match_url(match: Match) -> str:
    try:
        name = get_game(match.game).hooks.table_url_name or "games:match-detail"
    except UnknownGame:
        name = "games:match-detail"
    try:
        return settings.SITE_URL + reverse(name, args=[match.pk])
    except NoReverseMatch:
        return settings.SITE_URL + reverse("games:match-detail", args=[match.pk])


def _lines(match: Match, seat: int | None, from_seq: int, to_seq: int, lang: str) -> list[str]:
    """The reader's diary lines ``from_seq``..``to_seq``. The rows are fetched once per
    Match object and range (the outbox gives a batch's emails of one match the same
    object), then filtered per reader by ``selectors.diary_lines_visible``."""
    if to_seq < from_seq:
        return []
    memo = match.__dict__.setdefault("_email_diary_memo", {})
    if (from_seq, to_seq) not in memo:
        memo[(from_seq, to_seq)] = list(DiaryEntry.objects.filter(
            match=match, seq__gte=from_seq, seq__lte=to_seq).order_by("seq"))
    return [line.text for line in selectors.diary_lines_visible(
        match, memo[(from_seq, to_seq)], seat, lang, cached=False)]


def prefetch(rows: list[Notification]) -> None:
    """Read what ``_lines`` needs for a whole batch at once: the diary rows of every
    (match, range) in one query, the seat names of every match in another, kept on the
    batch's Match objects (instead of two queries per match)."""
    wanted: dict[int, set[tuple[int, int]]] = {}
    matches: dict[int, Match] = {}
    for n in rows:
        if n.match is None or n.kind not in (K.NEW_PHASE, K.YOUR_TURN, K.MATCH_FINISHED):
            continue
        low, high = n.payload.get("from_seq", 1), n.payload.get("to_seq", 0)
        if high >= low:
            wanted.setdefault(n.match_id, set()).add((low, high))
            matches[n.match_id] = n.match
    if not wanted:
        return
    where = Q()
    for match_id, ranges in wanted.items():
        for low, high in ranges:
            where |= Q(match_id=match_id, seq__gte=low, seq__lte=high)
    entries: dict[int, list[DiaryEntry]] = {match_id: [] for match_id in wanted}
    for entry in DiaryEntry.objects.filter(where).order_by("match_id", "seq"):
        entries[entry.match_id].append(entry)
    for match_id, ranges in wanted.items():
        memo = matches[match_id].__dict__.setdefault("_email_diary_memo", {})
        for low, high in ranges:
            memo[(low, high)] = [e for e in entries[match_id] if low <= e.seq <= high]
    selectors.prefetch_seat_names(list(matches.values()))


def _phase_context(n: Notification, zone: str) -> dict[str, Any]:
    phase = n.phase
    if phase is None and n.payload.get("phase_id"):
        phase = Phase.objects.filter(pk=n.payload["phase_id"]).first()
    if phase is None:
        return {"phase": None, "deadline": gettext("none (no time limit)")}
    return {"phase": phase, "deadline": format_local(phase.deadline_at, zone),
            "default_text": phase.default_text}


def _game_email(n: Notification, lang: str) -> dict[str, Any]:
    """A game's own block for the new-phase email (``GameHooks.email_context(match, seat,
    lang) -> dict`` and ``email_template`` / ``email_template_html``, included by the body
    templates). A failing hook never stops the email."""
    if n.match is None:
        return {}
    try:
        game = get_game(n.match.game)
    except UnknownGame:
        return {}
    hook = game.hooks.email_context
    out: dict[str, Any] = {"game_email_txt": game.hooks.email_template,
                           "game_email_html": game.hooks.email_template_html}
    if hook is not None:
        try:
            out.update(hook(n.match, n.payload.get("seat"), lang))
        except Exception:  # noqa: BLE001 - the diary lines still go out
            log.exception("email_context of %s failed for notification %s", n.match.game, n.pk)
            return {}
    return out


def ctx_new_phase(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    """The phase, deadline and default; the reader's own parts (``reader_parts``) are
    rendered apart, so the rest can be shared by a batch's readers."""
    return _phase_context(n, zone)


#: the most diary lines a phase email shows under "what changed" (the rest: a link)
EMAIL_LINES_CAP = 15


def reader_parts(n: Notification, context: dict[str, Any], lang: str,
                 renders: dict[Any, str] | None = None) -> dict[str, str]:
    """The parts of a new-phase / your-move email that are the reader's own, rendered:
    ``lines_txt`` / ``lines_html`` (the diary lines this seat may read, or "nothing new")
    and, for a new phase, ``game_txt`` / ``game_html`` (the game's block for this seat).
    ``context`` is the reader's full context (name, link, phase…).

    ``renders``: given when ``context`` is the shared one of a batch (tokens for the
    reader, ``_contents``), a memo of the renderings by what the reader's parts are made
    of: readers whose lines (or lines and the game's block) come out the same share one
    rendering (every seat's "nothing new", the lines all seats may read, the first
    phase's shopping block), while each reader's lines and block are still worked out
    for that reader alone."""
    if n.kind not in (K.NEW_PHASE, K.YOUR_TURN):
        return {}
    p = n.payload
    lines = (_lines(n.match, p.get("seat"), p.get("from_seq", 1), p.get("to_seq", 0), lang)
             if n.match is not None else [])
    # "what changed" is capped: the latest lines, and a link to the rest (a fast table's
    # "your move" carried hundreds of lines before the one that matters)
    more = max(0, len(lines) - EMAIL_LINES_CAP)
    ctx = {**context, "lines": lines[more:], "more": more}
    shown = (tuple(lines[more:]), more)

    def render(template: str, key: Any) -> str:
        if renders is None or key is None:
            return render_to_string(template, ctx)
        if (template, key) not in renders:
            renders[(template, key)] = render_to_string(template, ctx)
        return renders[(template, key)]

    parts = {"lines_txt": render("emails/_lines.txt", shown),
             "lines_html": mark_safe(render("emails/_lines.html", shown))}
    # news for this reader that coincided with the phase email (their death): on top
    news = news_items(n, p.get("news") or [], profile_for(n.recipient).timezone, lang)
    parts["news_txt"] = render_to_string("emails/_news.txt", {"items": news}) if news else ""
    parts["news_html"] = mark_safe(render_to_string("emails/_news.html", {"items": news})
                                   if news else "")
    if n.kind in (K.NEW_PHASE, K.YOUR_TURN):  # "what you can do now" in both
        game = _game_email(n, lang)
        ctx.update(game)
        try:  # the block is the same for readers whose lines and game context are
            key: Any = (shown, json.dumps(game, sort_keys=True))
        except (TypeError, ValueError):  # not plain data: rendered for this reader alone
            key = None
        txt, html = ctx.get("game_email_txt"), ctx.get("game_email_html")
        parts["game_txt"] = render(txt, key) if txt else ""
        parts["game_html"] = mark_safe(render(html, key) if html else "")
    return parts


def ctx_reminder(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    return _phase_context(n, zone)


def ctx_match_started(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    return _phase_context(n, zone)


def ctx_match_finished(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    p = n.payload
    seat = selectors.seat_for_user(n.match, n.recipient) if n.match else None
    number = seat.number if seat else None
    outcome = (n.match.outcome or {}) if n.match else {}
    with translation.override(lang):  # the stored summary's Msg, in the reader's language
        summary = outcome_text(outcome)
    return {"summary": summary,
            "news": news_items(n, p.get("news") or [], zone, lang),
            "won": number is not None and number in outcome.get("winners", []),
            "lines": _lines(n.match, number, p.get("from_seq", 1), p.get("to_seq", 0), lang)}


def ctx_digest(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    sections = []
    for section in n.payload.get("sections", []):
        match = Match.objects.filter(pk=section["match_id"]).first()
        if match is None:
            continue
        sections.append({"match": match, "url": match_url(match),
                         "lines": _lines(match, section["seat"], section["from_seq"],
                                         section["to_seq"], lang),
                         "deadline": format_local(getattr(selectors.current_phase(match),
                                                          "deadline_at", None), zone)})
    for app in registry.all_apps():  # other apps add their lines (press: unread messages)
        if app.digest_lines is not None:
            app.digest_lines(n, sections, zone)
    return {"sections": sections}


def ctx_director(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    admin_url = settings.SITE_URL + "/admin/games/match/"
    if n.match is not None:
        admin_url += f"{n.match.pk}/change/"
    return {"subject": n.payload.get("subject", ""), "message": n.payload.get("message", ""),
            "admin_url": admin_url}


def ctx_start_overdue(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    return {"message": n.payload.get("message", "")}


# --- match news (games.services.news) -------------------------------------------------

#: how many of the reader's diary lines a "you died" item shows (the rest: the match page)
NEWS_LINES_CAP = 12


def _when(iso: str | None, zone: str) -> str:
    from datetime import datetime

    if not iso:
        return gettext("none (no time limit)")
    try:
        return format_local(datetime.fromisoformat(iso), zone)
    except (TypeError, ValueError):
        return gettext("none (no time limit)")


def news_items(n: Notification, events: list[dict[str, Any]], zone: str,
               lang: str) -> list[dict[str, Any]]:
    """Each piece of news as ``{"subject", "text", "lines", "more"}`` in the reader's
    language and zone; ``lines``: what the reader saw happen (a death), capped."""
    from games.templatetags.games_tags import phase_label

    out = []
    for e in events:
        kind = e.get("event")
        phase = phase_label(e.get("phase_kind") or "")
        args = {"phase": phase, "turn": e.get("turn", ""), "seat": e.get("seat", ""),
                "deadline": _when(e.get("deadline"), zone), "new": e.get("new", ""),
                "old": e.get("old", ""), "name": e.get("name", ""),
                "reason": e.get("reason", "")}
        lines: list[str] = []
        more = 0
        if kind == "paused":
            subject = gettext("The match is paused")
            text = gettext("The director paused the match: no phase closes and no orders "
                           "are taken until it resumes; the deadline then moves by the "
                           "paused time.")
        elif kind == "resumed":
            subject = gettext("The match resumed")
            text = (gettext("The director resumed the match. The %(phase)s phase (turn "
                            "%(turn)s) now ends %(deadline)s.") % args if e.get("deadline")
                    else gettext("The director resumed the match."))
        elif kind == "extended":
            subject = gettext("New deadline: %(deadline)s") % args
            text = (gettext("%(name)s used an emergency pause: the %(phase)s phase (turn "
                            "%(turn)s) now ends %(deadline)s.") % args if e.get("name")
                    else gettext("The director extended the %(phase)s phase (turn %(turn)s):"
                                 " the new deadline is %(deadline)s.") % args)
        elif kind == "seat_taken":
            subject = gettext("A seat changed hands")
            text = gettext("%(new)s took over the seat of %(old)s.") % args
        elif kind == "seat_open":
            subject = gettext("A seat is open for a new player")
            text = gettext("The seat of %(old)s is open for a new player: %(reason)s") % {
                **args, "reason": SEAT_OPEN_REASONS.get(e.get("reason"), "")}
        elif kind == "replaced":
            subject = gettext("Your seat was taken over")
            text = gettext("%(new)s took over your seat; you no longer play in this "
                           "match. Your record shows that you left it.") % args
        elif kind == "took_seat":
            subject = gettext("You took over a seat")
            text = gettext("You took over the seat of %(old)s: you read what the seat "
                           "knew. The open phase ends %(deadline)s.") % args
        elif kind == "died":
            subject = gettext("You died")
            text = gettext("You died in the %(phase)s phase of turn %(turn)s. What you saw "
                           "happen:") % args
            seat = n.payload.get("seat")
            if n.match is not None:
                lines = _lines(n.match, seat, int(e.get("from_seq", 1)),
                               int(e.get("to_seq", 0)), lang)
            more = max(0, len(lines) - NEWS_LINES_CAP)
            lines = lines[-NEWS_LINES_CAP:]
        elif kind == "cancelled":
            subject = gettext("The match was cancelled")
            text = (gettext("The director cancelled the match before it started: "
                            "%(reason)s") % args if e.get("reason")
                    else gettext("The director cancelled the match before it started."))
        else:
            continue
        out.append({"subject": subject, "text": text, "lines": lines, "more": more})
    return out


SEAT_OPEN_REASONS = {
    "director": gettext_lazy("the director opened it."),
    "vote": gettext_lazy("the other players voted to replace its absent player."),
    "absent": gettext_lazy("its player has been absent too long."),
}


def ctx_match_news(n: Notification, zone: str, lang: str) -> dict[str, Any]:
    items = news_items(n, n.payload.get("events") or [], zone, lang)
    if len(items) == 1:
        headline = items[0]["subject"]
    else:
        headline = ngettext("%(count)d update", "%(count)d updates", len(items)) % {
            "count": len(items)}
    return {"items": items, "headline": headline}


BUILDERS: dict[str, Callable[[Notification, str, str], dict[str, Any]]] = {
    K.NEW_PHASE: ctx_new_phase,
    K.YOUR_TURN: ctx_new_phase,
    K.REMINDER: ctx_reminder,
    K.DIGEST: ctx_digest,
    K.MATCH_STARTED: ctx_match_started,
    K.MATCH_FINISHED: ctx_match_finished,
    K.DIRECTOR: ctx_director,
    K.START_OVERDUE: ctx_start_overdue,
    K.MATCH_NEWS: ctx_match_news,
}


def builder(kind: str) -> Callable[[Notification, str, str], dict[str, Any]]:
    """The context builder of a notification kind: the framework's own (``BUILDERS``) or
    an app's (``AppHooks.email_builders``: press messages, a game's own emails)."""
    found = BUILDERS.get(kind)
    if found is None:
        for app in registry.all_apps():
            found = app.email_builders.get(kind)
            if found is not None:
                break
    if found is None:
        raise KeyError(f"no email builder for notification kind {kind!r}")
    return found


#: kinds whose rendering, apart from the reader's own parts (``reader_parts``), depends on
#: the match, phase, language and zone only (never on who the reader is): rendered once per
#: batch for all their readers with the same inputs, with tokens in place of the reader's
#: name, link and parts, then filled in for each reader (``_contents``)
SHARED_KINDS = frozenset({K.NEW_PHASE, K.YOUR_TURN, K.REMINDER, K.MATCH_STARTED})
NAME_TOKEN = "PBWREADERNAMEq7Zk"
LINK_TOKEN = "PBWREADERLINKq7Zk"
PART_TOKENS = {part: f"PBWREADER{part.replace('_', '').upper()}q7Zk"
               for part in ("lines_txt", "lines_html", "game_txt", "game_html",
                            "news_txt", "news_html")}


class _AnyReader:
    """Stands in for the reader in a shared rendering: only the name (as a token) exists,
    so a template that reached for anything else about the reader gets nothing, never
    another reader's value."""

    def get_username(self) -> str:
        return NAME_TOKEN

    def __str__(self) -> str:
        return NAME_TOKEN


def _render(n: Notification, context: dict[str, Any]) -> tuple[str, str, str]:
    subject = " ".join(render_to_string(f"emails/{n.kind}-subject.txt", context).split())
    return (subject, render_to_string(f"emails/{n.kind}-body.txt", context),
            render_to_string(f"emails/{n.kind}-body.html", context))


def _base_context(n: Notification) -> dict[str, Any]:
    return {"notification": n, "match": n.match, "match_url": match_url(n.match),
            "site_name": settings.SITE_NAME, "site_url": settings.SITE_URL}


def _contents(n: Notification, zone: str, lang: str, link: str) -> tuple[str, str, str]:
    """Subject, text and HTML of ``n`` for its reader. Shared kinds are rendered once per
    (kind, language, zone, phase) and Match object (one per match and batch) with tokens
    in place of the reader's name, unsubscribe link and own parts, then filled in: a
    batch of a close's emails costs one rendering of the body, and per reader only its
    diary lines and the game's block."""
    user = n.recipient
    if n.kind not in SHARED_KINDS or n.match is None:
        base = _base_context(n)
        context = {**base, "user": user, "unsubscribe_url": link,
                   **builder(n.kind)(n, zone, lang)}
        subject, text, html = _render(n, {**context, **reader_parts(n, context, lang)})
        return subject, text_tidy(text), html_compact(html)
    memo = n.match.__dict__.setdefault("_email_render_memo", {})
    key = (n.kind, lang, zone, n.phase_id, n.payload.get("phase_id"))
    if key not in memo:
        # the shared body is tidied (text) and folded (HTML) here, once: per reader only
        # the seams where their parts go in are left to tidy, and the lines to wrap
        shared = builder(n.kind)(n, zone, lang)
        subject, text, html = _render(n, {**_base_context(n), "notification": None,
                                          "user": _AnyReader(), "unsubscribe_url": LINK_TOKEN,
                                          **shared, **PART_TOKENS})
        html = html_fold(html)
        memo[key] = (shared, subject, text_tidy_inner(text), html, widest(html))
    shared, subject, text, html, top = memo[key]
    # the reader's parts: the same for each row of one seat and range (payload), so once
    # per batch for a reader with several emails; their name and link are tokens too
    parts_key = (*key, json.dumps(n.payload, sort_keys=True, default=str))
    if parts_key not in memo:
        parts = reader_parts(n, {**_base_context(n), "notification": None, "user": _AnyReader(),
                                 "unsubscribe_url": LINK_TOKEN, **shared}, lang,
                             renders=memo.setdefault(("renders", *key), {}))
        parts = {part: text_tidy_inner(value) if part.endswith("_txt") else html_fold(value)
                 for part, value in parts.items()}
        memo[parts_key] = (parts, max((widest(value) for part, value in parts.items()
                                       if part.endswith("_html")), default=0))
    parts, parts_top = memo[parts_key]
    for part, token in PART_TOKENS.items():
        if part.endswith("_txt"):
            text = text.replace(token, parts.get(part, ""))
        else:
            html = html.replace(token, parts.get(part, ""))
    name = user.get_username()
    html_name, html_link = escape(name), escape(link)
    subject = subject.replace(LINK_TOKEN, link).replace(NAME_TOKEN, name)
    text = text.replace(LINK_TOKEN, link).replace(NAME_TOKEN, name)
    html = html.replace(LINK_TOKEN, html_link).replace(NAME_TOKEN, html_name)
    if "\n" in html:  # a name or link with a line break in it: fold it like the rest
        html = html_fold(html)
    return subject, text_tidy(text), html_wrap(
        html, max(top, parts_top, widest(html_name), widest(html_link)))


class OutboxPolicy(Compat32):
    """The standard library's ``compat32`` policy (Django's), except that a header of
    plain ASCII on one line is written as it is. compat32 writes exactly those bytes for a
    short one too, but only after running it through ``email.header.Header``: most of the
    CPU an email costs, for the dozen headers of every message; a long one (the
    unsubscribe link) stays on its one line, within SMTP's 998 characters, where compat32
    might fold it (``tests/games/test_outbox_email.py`` compares the bytes)."""

    def fold_binary(self, name: str, value: Any) -> bytes:
        key = ((name, value, self.linesep, self.max_line_length, self.cte_type)
               if isinstance(value, str) else None)
        folded = _FOLDED.get(key) if key is not None else None
        if folded is not None:
            return folded
        if (key is not None and value.isascii() and "\n" not in value
                and "\r" not in value and len(name) + 2 + len(value) <= MAX_HEADER_LINE):
            folded = f"{name}: {value}{self.linesep}".encode("ascii")
        else:
            folded = super().fold_binary(name, value)
        if key is not None:
            # the lines of the headers every message repeats (the parts' Content-Type,
            # MIME-Version and Content-Transfer-Encoding, the sender...) are kept: a
            # lookup instead of checking and encoding them again; bounded, it starts
            # over when full (a value seen once, like the recipient, costs one lookup)
            if len(_FOLDED) >= FOLDED_MEMO:
                _FOLDED.clear()
            _FOLDED[key] = folded
        return folded


FOLDED_MEMO = 512
_FOLDED: dict[tuple[Any, ...], bytes] = {}

MAX_HEADER_LINE = 998  # RFC 5322 2.1.1, without the line end


OUTBOX_POLICY = OutboxPolicy()


#: an address Django's ``sanitize_address`` gives back as it is, parsed or not (ASCII
#: dot-atoms, at most a plain display name): such a one may be handed over as the pair
#: ``(name, address)``, which it takes without its address parser
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+")
_PLAIN_NAME = re.compile(r"[A-Za-z0-9 .'-]*")


@lru_cache(maxsize=4096)
def envelope_pair(address: str) -> str | tuple[str, str]:
    """``address`` as ``(display name, address)`` when Django's ``sanitize_address``
    turns the pair into exactly what it turns the text into, else the text.

    ``sanitize_address`` parses a text with the standard library's header parser, about
    a tenth of a millisecond per address (two per email); a pair it only checks and
    formats. Memoised per process (the sender's address is in every email, a reader's in
    each of theirs)."""
    name, addr = parseaddr(address)
    if (not _PLAIN_ADDRESS.fullmatch(addr) or not _PLAIN_NAME.fullmatch(name)
            or formataddr((name, addr)) != address.strip()):
        return address
    return (name, addr)


class OutboxEmail(EmailMultiAlternatives):
    """An outbox email: Django's, flattened by the standard library's generator under
    :class:`OutboxPolicy`, with its MIME boundary chosen when the message is built (a
    random token; left unset, the generator picks one per message by compiling a regular
    expression and scanning the whole text with it).

    ``freeze()`` (the outbox, before its SMTP connection opens): the message built and
    flattened now, for Django's SMTP backend to send as it is, and the envelope's
    addresses as the pairs ``sanitize_address`` takes without parsing
    (:func:`envelope_pair`); the ``From`` header keeps the text."""

    _frozen: Any = None

    def message(self) -> Any:
        if self._frozen is not None:
            return self._frozen
        msg = super().message()
        if msg.is_multipart():
            msg.set_boundary(f"=_{secrets.token_hex(16)}")
        msg.policy = OUTBOX_POLICY  # the generator folds with the message's policy
        return msg

    def freeze(self, linesep: str = "\r\n") -> None:
        """Build and flatten the message now (with ``linesep``, SMTP's by default); from
        then on ``message()`` is that message, whose ``as_bytes`` with the same line ends
        gives those bytes without flattening it again (Django's SMTP backend calls
        exactly that). Nothing about the email may change after this."""
        msg = self.message()
        wire = msg.as_bytes(linesep=linesep)
        flatten = msg.as_bytes

        def as_bytes(unixfrom: bool = False, linesep: str = "\n") -> bytes:
            return (wire if not unixfrom and linesep == frozen_linesep
                    else flatten(unixfrom=unixfrom, linesep=linesep))
        frozen_linesep = linesep
        msg.as_bytes = as_bytes
        self._frozen = msg
        self.extra_headers.setdefault("From", self.from_email)  # the header: the text
        self.from_email = envelope_pair(self.from_email)

    def recipients(self) -> list[Any]:
        """Django's, each address as :func:`envelope_pair` gives it (the backend only
        hands them to ``sanitize_address`` for the envelope; the headers keep ``to``)."""
        return [envelope_pair(address) for address in super().recipients()]


def build(n: Notification) -> EmailMultiAlternatives:
    """The email for outbox row ``n``, rendered in the reader's language and zone."""
    lang = profile_for(n.recipient).reading_language()
    with translation.override(lang):
        return _build(n, lang)


def build_many(rows: list[Notification]) -> list[tuple[Notification, Any]]:
    """``build`` for a batch: ``(row, email)`` for each row, or ``(row, exception)`` for a
    row whose rendering failed (the others still go). The rows are taken a language at a
    time, the language activated once for its group (activating it is a thread-local
    swap and a catalogue lookup, a fifth of what rendering a shared email costs), in the
    batch's order within each group."""
    groups: dict[str, list[Notification]] = {}
    for n in rows:
        groups.setdefault(profile_for(n.recipient).reading_language(), []).append(n)
    out: list[tuple[Notification, Any]] = []
    for lang, group in groups.items():
        with translation.override(lang):
            for n in group:
                try:
                    out.append((n, _build(n, lang)))
                except Exception as exc:  # noqa: BLE001 - the caller retries that row only
                    out.append((n, exc))
    return out


def _build(n: Notification, lang: str) -> EmailMultiAlternatives:
    """``build`` with ``lang`` (the reader's) already active."""
    user = n.recipient
    zone = profile_for(user).timezone
    link = unsubscribe_url(user, n.kind)
    subject, text, html = _contents(n, zone, lang, link)
    message = OutboxEmail(
        subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[user.email],
        headers={"List-Unsubscribe": f"<{link}>",
                 "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    message.attach_alternative(html, "text/html")
    return message
