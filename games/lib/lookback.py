"""Looking back: an earlier phase exactly as one reader saw it then (issue 32).

A closed phase ``n`` is shown as the board stood when it opened — the stored Snapshot of
the phase closed just before it (or the start snapshot) — seen through the game's one door,
``player_view(state, seat)`` (``omniscient_view`` for the director, the spectator view
``player_view(state, None)`` for anybody without a seat), plus the reader's diary rows of
that phase (what happened during it and at its close). Never today's state, never another
seat's rows. The reader is their seat *number*: a takeover newcomer reads what the seat knew
(players/takeover.py), a dead player keeps their own past, a player who left reads as a
spectator.

The page (``?phase=<n>`` on the match page), its JSON twin
(``GET /api/matches/<id>/phases/<n>/``) and Kill Game's post-game replay read the
snapshots through this module. A past phase never changes, so its HTML and JSON are kept
in the shared HTML cache (games/lib/htmlcache.py) under a key without the match version:
the match, its creation time, the phase, who reads (seat number / director / visitor), the
roster (names appear in the diary), the language, the time zone and the code version.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games import selectors
from games.lib import htmlcache
from games.models import Match, Phase, Snapshot
from games.registry import get_rules

PHASE_PARAM = "phase"
#: phase numbers above this are refused as junk (no match has a billion phases)
MAX_PHASE_NUMBER = 10**9
BAD_PHASE = _("phase must be a whole number, 1 or more (the number of a closed phase).")
NO_SUCH_PHASE = _("This match has no closed phase with that number.")
PHASE_STILL_OPEN = _("That phase is still open: what it shows is the match page itself.")


class BadPhase(Exception):
    """A ``phase`` value that names no closed phase: ``status`` 400 (junk) or 404."""

    def __init__(self, message: Any, status: int, code: str) -> None:
        super().__init__(str(message))
        self.message = str(message)
        self.status = status
        self.code = code


@dataclass(frozen=True)
class Reader:
    """Who looks back, as far as what they may see goes."""

    seat_number: int | None
    director: bool

    @property
    def tag(self) -> str:
        if self.director:
            return "d"
        return "v" if self.seat_number is None else f"s{self.seat_number}"


def reader_for(seat: Any, director: bool) -> Reader:
    """The reader of a (seat, director) pair from ``games.lib.pages.viewer_of``."""
    number = getattr(seat, "number", None) if seat is not None else None
    return Reader(seat_number=number, director=bool(director and number is None))


def parse_number(raw: Any) -> int:
    """A ``phase`` value as a phase number, else :class:`BadPhase` (400)."""
    text = str(raw).strip() if raw is not None else ""
    if not text.isascii() or not text.isdigit() or len(text) > 10:
        raise BadPhase(BAD_PHASE, 400, "INVALID")
    number = int(text)
    if number < 1 or number > MAX_PHASE_NUMBER:
        raise BadPhase(BAD_PHASE, 400, "INVALID")
    return number


def closed_phases(match: Match) -> list[Phase]:
    """The match's closed phases, oldest first (what the selector lists)."""
    return list(Phase.objects.filter(match=match, closed_at__isnull=False)
                .only("id", "match_id", "number", "turn", "kind", "opens_at", "closed_at")
                .order_by("number"))


def closed_phase(match: Match, number: int) -> Phase:
    """The closed phase ``number`` of ``match``; :class:`BadPhase` when it is the open one
    (409) or there is none (404)."""
    phase = Phase.objects.filter(match=match, number=number).first()
    if phase is None:
        raise BadPhase(NO_SUCH_PHASE, 404, "NOT_FOUND")
    if phase.closed_at is None:
        raise BadPhase(PHASE_STILL_OPEN, 409, "PHASE_OPEN")
    return phase


def opening_snapshot(match: Match, phase: Phase) -> Snapshot | None:
    """The stored state ``phase`` opened with: the snapshot of the phase closed just before
    it, or the start snapshot for the first phase."""
    before = (Snapshot.objects.filter(match=match, phase__number__lt=phase.number)
              .order_by("-phase__number").first())
    if before is not None:
        return before
    return Snapshot.objects.filter(match=match, phase__isnull=True).order_by("id").first()


def snapshots(match: Match) -> list[Snapshot]:
    """Every snapshot of ``match``: the start, then one per closed phase, in order (the
    post-game replay steps through them)."""
    return list(Snapshot.objects.filter(match=match).select_related("phase").order_by("id"))


def view_of_state(match: Match, state: Any, reader: Reader) -> dict[str, Any]:
    """The one door applied to a stored state: the director's omniscient view, else the
    reader's ``player_view`` (spectator: seat ``None``)."""
    engine = get_rules(match.game)
    loaded = engine.load(state)
    if reader.director:
        return dict(engine.omniscient_view(loaded))
    return dict(engine.player_view(loaded, reader.seat_number))


def past_view(match: Match, phase: Phase, reader: Reader) -> dict[str, Any] | None:
    """What ``reader`` saw of the board while ``phase`` was open (None: no snapshot)."""
    snap = opening_snapshot(match, phase)
    if snap is None:
        return None
    return view_of_state(match, snap.state, reader)


def past_diary(match: Match, phase: Phase, reader: Reader, lang: str,
               names: dict[int, str] | None = None) -> list[selectors.DiaryLine]:
    """The reader's diary rows of ``phase`` (the director: every row), described in
    ``lang`` — the same door and cache as the live diary."""
    return list(selectors.diary_for_seat(match, reader.seat_number, lang=lang,
                                         omniscient=reader.director, names=names,
                                         turns=Q(phase_id=phase.pk)))


def neighbours(phases: list[Phase], number: int) -> tuple[int | None, int | None]:
    """(previous closed phase number, next closed phase number) around ``number``."""
    numbers = [p.number for p in phases]
    before = [n for n in numbers if n < number]
    after = [n for n in numbers if n > number]
    return (before[-1] if before else None, after[0] if after else None)


def cache_key(kind: str, match: Match, number: int, reader: Reader, roster: str) -> str:
    """The key of a past phase's page part or JSON: everything it shows depends on these
    and on nothing that a later phase changes (so no match version)."""
    raw = "|".join([htmlcache.code_version(), str(match.pk),
                    f"{match.created_at.timestamp():.6f}" if match.created_at else "-",
                    str(number), reader.tag, roster, translation.get_language() or "",
                    timezone.get_current_timezone_name()])
    return f"past:{match.pk}:{kind}:{hashlib.sha1(raw.encode()).hexdigest()}"


def page_fragment(request: Any, match: Match) -> tuple[str, str, list[Any]]:
    """The live match page's selector fragment, announced for the page's prefetch
    (the games app's ``AppHooks.page_fragment``): public, keyed by the match's public version."""
    return ("lookback", "public", [])
