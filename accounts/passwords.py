"""Passwords people cannot be talked out of, refused: a local list on top of Django's
validators (at least 12 characters, not like the name or address, not all digits, not
among the 20,000 common passwords Django ships).

:class:`BlocklistValidator` refuses, case-insensitively and with the digits and symbols
people add at the end ignored ("phasesphases2024!" is "phasesphases"):

- the bundled list ``accounts/data/blocked-passwords.txt``: passwords of 12 characters and
  more that lead breach lists (the length rule alone lets them through), and words of this
  site (its name, its games) that guessers try first;
- the operator's own list, ``PASSWORD_BLOCKLIST_FILE``: one password or one SHA-1 hex
  digest per line (the format of the public breach corpora, ``HASH:COUNT`` accepted), plain
  or gzipped; read once per process, kept as digests.

Nothing leaves the server: the check is local (no breach service is asked).
"""

from __future__ import annotations

import gzip
import hashlib
import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

BUNDLED = Path(__file__).with_name("data") / "blocked-passwords.txt"
_HEX = re.compile(r"^[0-9a-fA-F]{40}(:\d+)?$")
_TAIL = re.compile(r"[\d\W_]+$")


def _digest(text: str) -> bytes:
    return hashlib.sha1(text.encode("utf-8")).digest()


def _read_lines(path: Path) -> list[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as fh:  # type: ignore[operator]
        return [line.strip() for line in fh if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=4)
def _blocked(extra: str) -> frozenset[bytes]:
    """SHA-1 digests of every blocked password (lowercase), the bundled and the operator's."""
    out = {_digest(p.lower()) for p in _read_lines(BUNDLED)}
    if extra:
        for line in _read_lines(Path(extra)):
            if _HEX.match(line):
                out.add(bytes.fromhex(line[:40]))
            else:
                out.add(_digest(line.lower()))
    return frozenset(out)


def forms_of(password: str) -> set[str]:
    """The password as it is (a breach list holds it so) and lowercased without the digits
    and symbols at its end (the list's word under the usual decorations)."""
    out = {password, password.lower()}
    core = _TAIL.sub("", password.lower())
    if core:
        out.add(core)
    return out


class BlocklistValidator:
    """``AUTH_PASSWORD_VALIDATORS`` entry: refuse a password on the local lists."""

    def validate(self, password: str, user: object = None) -> None:
        blocked = _blocked(str(getattr(settings, "PASSWORD_BLOCKLIST_FILE", "") or ""))
        for form in forms_of(password):
            if _digest(form) in blocked:
                raise ValidationError(
                    _("This password is on a list of passwords that attackers try first "
                      "(leaked or about this site). Choose another."),
                    code="password_blocked")

    def get_help_text(self) -> str:
        return _("Your password cannot be one that attackers try first (leaked ones, or "
                 "words of this site).")
