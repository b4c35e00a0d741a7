"""Issue 28's pattern: memo keys are listed by hand per block (``{% memo a b … %}``), and
nothing checked them. Here every memoised block of the templates is rendered for two
readers in turn on the demo: what the second reader gets from a memo the first one filled
must be what they get rendered afresh (a key that misses something the block shows would
hand one reader's HTML to the other)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from games.lib.htmlcache import local as memo
from games.models import Match
from games.templatetags import shell_tags

pytestmark = pytest.mark.django_db
TOKENS = re.compile(r'(csrfmiddlewaretoken" value="|csrf-token" content="|"X-CSRFToken": ")'
                    r'[^"]+')
MEMO_TAG = re.compile(r"{%\s*memo\b")


def memo_blocks() -> set[tuple[str, int]]:
    """(template name, line) of every {% memo %} in the project's templates."""
    found = set()
    roots = [Path(settings.BASE_DIR) / "templates",
             *(Path(settings.BASE_DIR) / app / "templates" for app in settings.GAME_APPS)]
    for root in roots:
        for path in root.rglob("*.html"):
            for lineno, line in enumerate(path.read_text().splitlines(), 1):
                for _ in MEMO_TAG.finditer(line):
                    found.add((str(path.relative_to(root)), lineno))
    return found


@pytest.fixture
def readers(db):
    from games.management.commands.run import seed_demo

    seed_demo(lambda *_: None)
    User = get_user_model()
    User.objects.create_user("stranger", "stranger@example.com", "x" * 14)
    Profile.objects.filter(user__username="demo2").update(language="it",
                                                          timezone="Asia/Tokyo")
    out = {}
    for name in ("demo1", "demo2", "demo3", "admin", "stranger", None):
        c = Client()
        if name is not None:
            c.force_login(User.objects.get(username=name))
        out[name or "visitor"] = c
    return out


def _page(client: Client, url: str) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, (url, resp.status_code)
    return TOKENS.sub(r"\1TOKEN", resp.content.decode())


def test_every_memoised_block_serves_each_reader_their_own_html(readers, monkeypatch):
    rendered: set[tuple[str, int]] = set()
    real = shell_tags.MemoNode.render

    def spy(self, context):
        rendered.add((self.origin.template_name, self.token.lineno))
        return real(self, context)

    monkeypatch.setattr(shell_tags.MemoNode, "render", spy)
    urls = ["/", "/my/", "/m/new/", *(f"/m/{pk}/" for pk in
                                      Match.objects.values_list("pk", flat=True))]
    names = list(readers)
    login_only = ("/my/", "/m/new/")  # these ask a visitor to log in
    with time_machine.travel("2026-12-01 12:00:00+00:00", tick=False):
        for url in urls:
            who = [n for n in names if not (url in login_only and n == "visitor")]
            cold = {}
            for name in who:
                memo.clear()
                cold[name] = _page(readers[name], url)
            for first in who:  # every ordered pair of readers
                for second in who:
                    if first == second:
                        continue
                    memo.clear()
                    _page(readers[first], url)  # fills the memo for the first reader
                    assert _page(readers[second], url) == cold[second], (url, first, second)
    missing = memo_blocks() - rendered
    assert not missing, f"memoised blocks this walk never rendered: {sorted(missing)}"
