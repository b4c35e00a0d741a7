"""Issue 26's "Done when", on the demo data of ``make run`` (``seed_demo``): in Japanese,
Italian and Spanish, the match pages of the three demo matches read by a seated player, their
move forms and an open ask of Three Kingdoms Kill show no English sentence or game term —
only player names (and the match's own name) stay as they are.

"English" is any word of the project's English catalogue (the msgids) that the reader's own
catalogue does not also use (so "OK" or "C4" in an Italian sentence is no English leak)."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Match

pytestmark = pytest.mark.django_db
#: what a poll or diary fragment is asked with (as tests/games/test_all_pages.py does)
QUERY = {"v": "0", "s": "0", "c": "0", "a": "1", "turn": "0", "step": "0", "since": "0",
         "hint": "1", "patterns": "1"}  # Dice Slayer's board with the hint and the scoring picks

LOCALE = Path(settings.BASE_DIR) / "locale"
GAMES = ("killgame", "diceslayer", "sanguosha")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
#: words that are names or symbols in every language: game titles, units, the card ranks
NAMES = {"kill", "game", "dice", "slayer", "three", "kingdoms", "demo", "sanguosha", "killgame",
         "diceslayer", "htmx", "json", "api", "url", "utc", "gmt", "rss"}


def _strings(po: Path, field: str) -> list[str]:
    out, cur = [], None
    for line in po.read_text(encoding="utf-8").splitlines():
        m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', line)
        if m:
            cur = m.group(1)
            if cur.startswith(field):
                out.append(ast.literal_eval(m.group(2)))
        elif line.startswith('"') and cur and cur.startswith(field):
            out[-1] += ast.literal_eval(line)
        elif not line.strip():
            cur = None
    return out


def _words(texts: list[str]) -> set[str]:
    found = set()
    for t in texts:
        t = re.sub(r"%\(\w+\)[sd]|\{\w+\}|<[^>]+>", " ", t)
        found |= {w.lower().strip("'’") for w in WORD.findall(t)}
    return found


def english_words(lang: str) -> set[str]:
    """The words of the project's English catalogue that ``lang``'s translations never use."""
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    english = _words(_strings(po, "msgid"))
    local = _words(_strings(po, "msgstr"))
    return {w for w in english if len(w) >= 3} - local - NAMES


class _Visible(HTMLParser):
    """The text a reader sees: text nodes outside script/style, and the attributes a
    screen or a pointer shows (title, placeholder, aria-label, alt, button values)."""

    SHOWN = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.hidden += 1
        a = dict(attrs)
        for k in self.SHOWN:
            if a.get(k):
                self.parts.append(a[k])
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.parts.append(a["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.parts.append(data)


def visible_text(html: str) -> str:
    p = _Visible()
    p.feed(html)
    return "\n".join(p.parts)


def english_in(html: str, vocabulary: set[str], names: set[str]) -> list[str]:
    """The lines of ``html``'s visible text with an English word that is not a name."""
    bad = []
    for line in visible_text(html).splitlines():
        # a JSON setting shown for editing: its keys are identifiers, not words
        text = re.sub(r"\{[^{}]*\}|\[[^\[\]]*\]", " ", line)
        text = re.sub(r"[\[{].*", " ", text) if text.strip().startswith(("{", "[")) else text
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        hits = [w for w in WORD.findall(text) if w.lower().strip("'’") in vocabulary]
        if hits:
            bad.append(f"{line.strip()[:160]}  <- {', '.join(sorted(set(hits)))}")
    return bad


def match_urls(match: Match) -> list[tuple[str, dict]]:
    """The match's pages and fragments for a seated player (htmx fragments as htmx asks)."""
    hx = {"HTTP_HX_REQUEST": "true"}
    m = match.pk
    urls = [(reverse("games:match-detail", args=[m]), {}),
            (reverse("games:match-diary", args=[m]), {}),
            (reverse("games:match-diary", args=[m]), hx),
            (reverse("games:match-poll", args=[m]), hx)]
    if match.game == "sanguosha":
        urls += [(reverse("sanguosha:table", args=[m]), {}),
                 (reverse("sanguosha:table-poll", args=[m]), hx)]
    elif match.game == "diceslayer":
        urls += [(reverse("diceslayer:play", args=[m]), {}),
                 (reverse("diceslayer:board", args=[m]), hx)]
    elif match.game == "killgame":
        urls += [(reverse("killgame:watch", args=[m]), {})]
    return urls


def _reader(username: str, lang: str) -> Client:
    """The demo player as seeded (no language chosen in the profile): only the browser's
    ``Accept-Language`` says which language the pages speak."""
    user = get_user_model().objects.get(username=username)
    assert user.profile.language == ""
    c = Client(raise_request_exception=True, HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(user)
    return c


def _asked_seat(match: Match) -> str:
    """The username of a seat the open Three Kingdoms Kill ask waits on."""
    from games import selectors

    phase = selectors.current_phase(match)
    awaited = set(phase.awaited or []) if phase else set()
    seats = list(match.seats.order_by("number").select_related("user"))
    for s in seats:
        if s.number in awaited:
            return s.user.username
    return seats[0].user.username


def _tkk_to_play_ask(match: Match, lang: str) -> str:
    """Answer the demo table's asks with the first offered button (as the pages post them)
    until the lord's Play phase asks; returns the username it waits on."""
    import html as _html
    import json

    from games import selectors
    from games.services.phases import phases_close_due
    from sanguosha import engine

    for _ in range(12):
        match.refresh_from_db()
        state = engine.load(match.state)
        ask = state.raw["ask"]
        assert ask is not None and not state.raw["over"]
        if ask["kind"] == "play":
            return _asked_seat(match)
        phase = selectors.current_phase(match)
        for seat in match.seats.filter(number__in=engine.awaiting(state)).select_related("user"):
            c = _reader(seat.user.username, lang)
            page = c.get(reverse("sanguosha:table", args=[match.pk])).content.decode()
            picks = re.findall(r'name="pick" value="([^"]*)"', page)
            assert picks, "an awaited seat is offered no button"
            c.post(reverse("sanguosha:answer", args=[match.pk]),
                   {"phase_id": phase.pk, "ask": ask["no"],
                    "pick": json.dumps(json.loads(_html.unescape(picks[0])))})
        phases_close_due()
    raise AssertionError("the demo table never reached a Play ask")


@pytest.mark.parametrize("lang", ["ja", "it", "es"])
def test_the_demo_games_read_in_the_readers_language(settings, lang):
    from django.core.cache import caches

    from games.management.commands.run import seed_demo

    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    vocabulary = english_words(lang)
    names = set(get_user_model().objects.values_list("username", flat=True))
    names |= set(Match.objects.values_list("name", flat=True))
    problems = []
    for game in GAMES:
        match = Match.objects.get(game=game)
        reader = _asked_seat(match) if game == "sanguosha" else "demo1"
        c = _reader(reader, lang)
        for alias in settings.CACHES:
            caches[alias].clear()
        for url, hx in match_urls(match):
            resp = c.get(url, QUERY, follow=not hx, **hx)
            assert resp.status_code in (200, 204), (url, resp.status_code)
            if resp.status_code == 204:
                continue
            problems += [f"{game} {url}{' (htmx)' if hx else ''}: {b}"
                         for b in english_in(resp.content.decode(), vocabulary, names)]
            if game == "diceslayer" and url.endswith("/board/"):
                assert 'id="ds-hint-box"' in resp.content.decode()  # the hint's reason too
    # an ask of Three Kingdoms Kill with its card buttons: the lord's Play phase
    match = Match.objects.get(game="sanguosha")
    c = _reader(_tkk_to_play_ask(match, lang), lang)
    for alias in settings.CACHES:
        caches[alias].clear()
    pages = {}
    for url, hx in match_urls(match):
        resp = c.get(url, QUERY, follow=not hx, **hx)
        assert resp.status_code in (200, 204), (url, resp.status_code)
        if resp.status_code == 200:
            pages[url] = resp.content.decode()
            problems += [f"sanguosha (play ask) {url}{' (htmx)' if hx else ''}: {b}"
                         for b in english_in(pages[url], vocabulary, names)]
    table = pages[reverse("sanguosha:table", args=[match.pk])]
    assert 'name="pick"' in table and "turn-banner" in table  # the ask and its buttons
    assert not problems, "\n".join(dict.fromkeys(problems))
