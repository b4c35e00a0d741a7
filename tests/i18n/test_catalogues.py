"""The it, ja and es catalogues are complete: no untranslated or fuzzy entry, at least 500
messages each, placeholders kept, and the committed .mo files match their .po sources."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
PLAYER_LANGUAGES = ["it", "ja", "es"]
MIN_MESSAGES = 500

pytestmark = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext not installed")


def _stats(po: Path) -> str:
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.mark.parametrize("lang", PLAYER_LANGUAGES)
def test_catalogue_is_complete(lang):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    stats = _stats(po)
    assert "fuzzy" not in stats and "untranslated" not in stats, stats
    translated = int(re.search(r"(\d+) translated message", stats).group(1))
    assert translated >= MIN_MESSAGES, stats
    assert "#, fuzzy" not in po.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", PLAYER_LANGUAGES)
def test_compiled_catalogue_matches_its_source(lang, tmp_path):
    """A fresh clone needs no compile step: the committed .mo is the .po compiled."""
    folder = LOCALE / lang / "LC_MESSAGES"
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "-o", str(fresh), str(folder / "django.po")], check=True)
    with open(folder / "django.mo", "rb") as a, open(fresh, "rb") as b:
        committed, expected = gettext.GNUTranslations(a), gettext.GNUTranslations(b)
    assert committed._catalog == expected._catalog  # type: ignore[attr-defined]


def _entries(po: Path) -> list[dict[str, str]]:
    """The entries of a .po file as {field: text} (msgid, msgid_plural, msgstr, msgstr[0]…)."""
    entries: list[dict[str, str]] = []
    field = None
    for line in po.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgctxt ") or (line.startswith("msgid ") and field != "msgctxt"):
            entries.append({})
        m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (".*")$', line)
        if m:
            field = m.group(1)
            entries[-1][field] = ast.literal_eval(m.group(2))
        elif line.startswith('"') and field:
            entries[-1][field] += ast.literal_eval(line)
        elif not line.strip():
            field = None
    return [e for e in entries if e.get("msgid")]


def test_placeholders_survive_translation():
    """Every %(name)s and {name} of a msgid comes back in each of its translations."""
    holder = re.compile(r"%\([^)]+\)[sd]|\{\w+(?:!r)?\}")
    for lang in PLAYER_LANGUAGES:
        entries = _entries(LOCALE / lang / "LC_MESSAGES" / "django.po")
        assert len(entries) >= MIN_MESSAGES
        for e in entries:
            wanted = set(holder.findall(e["msgid"] + e.get("msgid_plural", "")))
            for key, text in e.items():
                if key.startswith("msgstr"):
                    assert text, (lang, e["msgid"])
                    assert set(holder.findall(text)) == wanted, (lang, key, e["msgid"])
