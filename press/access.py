"""Who may read and write which press channel of a match: the one door for hidden
information in press (pages, fragments, API, emails all filter through ``readable_q``).

- The director (staff without a seat) reads everything.
- A seated player reads the public board, announcements and every conversation whose
  audience holds their seat; a dead player under the "public only" rule reads the public
  board and announcements only.
- A logged-in spectator reads the public board where the match allows it, and
  announcements.
- After the end every participant reads every channel (spectators too if the director
  allows it): the archive.

Team membership comes from the engine's player view (``allies``), so a seat only ever
writes to the partners the rules have revealed to it, and an opponent never learns who is
in a team.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext, gettext_noop

from games import registry, selectors
from games.exceptions import ApplicationError
from games.lib import audit, pages
from games.models import Match, Seat
from press.models import DeadRule, MatchPress, Message, PressRules

OPEN_STATUSES = (Match.Status.FORMING, Match.Status.RUNNING, Match.Status.PAUSED)
OVER_STATUSES = (Match.Status.FINISHED, Match.Status.CANCELLED)
C = Message.Channel

PRESS_DISABLED = gettext_noop("This match has no press.")
PUBLIC_ONLY = gettext_noop("This match allows the public board only.")
NOT_A_PARTICIPANT = "You do not have a seat in this match."
MATCH_OVER = gettext_noop("The match is over: its messages are an archive now.")
DEAD_READ_ONLY = gettext_noop("Dead players read the messages but cannot write.")
DEAD_PUBLIC_ONLY = gettext_noop("Dead players write on the public board only.")
NO_TEAM = gettext_noop("You have no team channel (no revealed partner) in this match.")
BAD_TO = 'to must be "all", "team" or a list of seat numbers.'
BAD_SEAT = gettext_noop("There is no other player in seat %(seat)s in this match.")
PUBLIC_BEFORE_START = gettext_noop("Before the start only the public board is open.")
DIRECTOR_PUBLIC = "The director writes announcements to everyone (to must be \"all\")."


def default_rules(game: str, config: dict[str, Any] | None = None) -> str:
    """The press rules a new match gets when nobody chose: the game's
    ``GameHooks.press_default(config)``, else full press."""
    try:
        hook = registry.get_game(game).hooks.press_default
    except registry.UnknownGame:
        hook = None
    rules = hook(config or {}) if hook is not None else PressRules.FULL
    return rules if rules in PressRules.values else PressRules.FULL


#: the settings columns the match page loads with its match row (``freshness.page_settings``)
PAGE_SETTINGS_FIELDS = ("rules", "dead", "spectators_read_public", "archive_for_spectators",
                        "pinned_id", "version")


def settings_from_page(match: Match) -> MatchPress | None:
    """The settings row ``freshness.page_settings`` loaded with ``match``, or None when the
    match was not loaded that way (or has no row: the caller asks the database)."""
    loaded = match.__dict__.get("press_settings_row")
    if isinstance(loaded, str):
        loaded = json.loads(loaded)
    if not isinstance(loaded, list) or len(loaded) != len(PAGE_SETTINGS_FIELDS):
        return None
    return MatchPress.from_db(MatchPress.objects.db, ["match_id", *PAGE_SETTINGS_FIELDS],
                              [match.pk, *loaded])


def settings_for(match: Match) -> MatchPress:
    """The match's press settings (an unsaved row with the game's default if none)."""
    cached = match.__dict__.get("_press_settings")
    if cached is not None:
        return cached
    # the match page loaded the row with the match (its pinned message, if any, is read
    # when asked for); elsewhere one query, the pinned message with it
    row = settings_from_page(match) or (MatchPress.objects.select_related("pinned")
                                        .filter(match_id=match.pk).first())
    if row is None:
        row = MatchPress(match_id=match.pk, rules=default_rules(match.game, match.config))
    match.__dict__["_press_settings"] = row
    return row


@dataclass
class Reader:
    """One person looking at one match's press."""

    match: Match
    user: Any
    seat: Seat | None
    director: bool
    press: MatchPress
    _view: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def number(self) -> int | None:
        return self.seat.number if self.seat is not None else None

    @property
    def is_player(self) -> bool:
        return self.number is not None

    @property
    def over(self) -> bool:
        return self.match.status in OVER_STATUSES

    def view(self) -> dict[str, Any]:
        """The engine's player view for this seat (memoised; {} before the start)."""
        if self._view is None:
            if self.match.state is None or pages.game_or_none(self.match.game) is None:
                self._view = {}
            else:
                self._view = selectors.player_view_for(self.match, self.seat) or {}
        return self._view

    @property
    def alive(self) -> bool:
        if not self.is_player:
            return False
        for p in self.view().get("players") or []:
            if isinstance(p, dict) and p.get("seat") == self.number:
                return p.get("alive", True) is not False
        return True

    def team(self) -> list[int]:
        """The seats of my team channel (me first), or [] if the rules reveal no partner."""
        allies = [a.get("seat") for a in self.view().get("allies") or []
                  if isinstance(a, dict) and isinstance(a.get("seat"), int)]
        return [self.number, *sorted(set(allies) - {self.number})] if allies else []


def reader_for(match: Match, user: Any) -> Reader | None:
    """The reader, or None for someone who may not look at this match at all."""
    if not pages.can_view(match, user):
        return None
    seat = pages.seat_of(match, user)
    if seat is not None and seat.number is None and match.status != Match.Status.FORMING:
        seat = None
    director = bool(user.is_staff and seat is None)
    if director and match.status in OPEN_STATUSES:  # every channel, private ones too
        audit.staff_view(user, match.pk, "press")
    return Reader(match=match, user=user, seat=seat, director=director,
                  press=settings_for(match))


#: what a reader may read (:func:`readable_kind`): every message, the public board, the
#: public board and the private / team messages the seat is a member of, the director's
#: announcements only
EVERYTHING, PUBLIC, PUBLIC_AND_OWN, ANNOUNCEMENTS = "everything", "public", "own", "announce"


def readable_kind(reader: Reader) -> str | None:
    """Which messages ``reader`` may read (None: nothing at all): the one decision, which
    :func:`readable_q` turns into a filter (press.selectors compiles the messages query
    once per kind)."""
    if reader.director:
        return EVERYTHING
    if reader.over and (reader.is_player or reader.press.archive_for_spectators):
        return EVERYTHING
    if reader.is_player:
        if reader.press.dead == DeadRule.PUBLIC_ONLY and reader.match.state is not None \
                and not reader.alive:
            return PUBLIC
        return PUBLIC_AND_OWN
    if reader.press.spectators_read_public:
        return PUBLIC
    return ANNOUNCEMENTS


def kind_q(kind: str | None, number: int | None) -> Q | None:
    """The filter of a :func:`readable_kind` (``number``: the reader's seat, for
    :data:`PUBLIC_AND_OWN`)."""
    public = Q(channel__in=[C.PUBLIC, C.ANNOUNCE])
    if kind == EVERYTHING:
        return Q()
    if kind == PUBLIC:
        return public
    if kind == PUBLIC_AND_OWN:
        return public | Q(audience__contains=f",{number},")
    if kind == ANNOUNCEMENTS:
        return Q(channel=C.ANNOUNCE)
    return None


def readable_q(reader: Reader) -> Q | None:
    """The messages ``reader`` may read, as a filter (None: nothing at all)."""
    return kind_q(readable_kind(reader), reader.number)


def can_write(reader: Reader) -> bool:
    """Whether the page should offer a form (the post still checks everything)."""
    try:
        _check_writer(reader)
    except ApplicationError:
        return False
    return True


def _check_writer(reader: Reader) -> None:
    if reader.over:
        raise ApplicationError(MATCH_OVER, code="MATCH_OVER", status=409)
    if reader.director:
        return
    if reader.seat is None:
        raise ApplicationError(NOT_A_PARTICIPANT, code="NOT_A_PARTICIPANT", status=403)
    if reader.press.rules == PressRules.NONE:
        raise ApplicationError(PRESS_DISABLED, code="PRESS_DISABLED", status=403)
    if reader.match.state is not None and reader.press.dead == DeadRule.READ_ONLY \
            and not reader.alive:
        raise ApplicationError(DEAD_READ_ONLY, code="DEAD", status=403)


def target_for(reader: Reader, to: Any, *, live: set[int] | None = None
               ) -> tuple[str, list[int]]:
    """(channel, member seats) for a post ``to`` = "all" | "team" | [seat, ...]; raises
    ApplicationError with the refusal's code. ``live``: the match's seated numbers, when
    the caller has them."""
    _check_writer(reader)
    if reader.director:
        if to != "all":
            raise ApplicationError(DIRECTOR_PUBLIC, code="INVALID", status=400, field="to")
        return C.ANNOUNCE, []
    if to == "all":
        return C.PUBLIC, []
    if to != "team" and not (isinstance(to, list) and to):
        raise ApplicationError(BAD_TO, code="INVALID", status=400, field="to")
    if reader.number is None:  # a forming match: seats get numbers at the start
        raise ApplicationError(PUBLIC_BEFORE_START, code="INVALID", status=400, field="to")
    if reader.press.rules == PressRules.PUBLIC:
        raise ApplicationError(PUBLIC_ONLY, code="PRESS_DISABLED", status=403, field="to")
    if reader.match.state is not None and not reader.alive:
        raise ApplicationError(DEAD_PUBLIC_ONLY, code="DEAD", status=403, field="to")
    if to == "team":
        members = reader.team()
        if not members:
            raise ApplicationError(NO_TEAM, code="NO_TEAM", status=400, field="to")
        return C.TEAM, members
    if live is None:
        live = set(Seat.objects.filter(match=reader.match, removed_at__isnull=True,
                                       number__isnull=False).values_list("number", flat=True))
    seats: set[int] = set()
    for raw in to:
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise ApplicationError(BAD_TO, code="INVALID", status=400, field="to")
        if raw == reader.number or raw not in live:
            raise ApplicationError(gettext(BAD_SEAT) % {"seat": raw}, code="INVALID", status=400,
                                   field="to")
        seats.add(raw)
    return C.PRIVATE, sorted(seats | {reader.number})
