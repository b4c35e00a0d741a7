"""The press messages query compiled once per reader type (press.selectors.messages_page)
shows every reader exactly the messages the ORM query of before showed them: players (a
member of a private or group message or not, muting a seat, alive or dead under "public
only"), spectators (public board open or closed), the director, a visitor, and the same
after the end (archive open or closed), on the newest page and on an older one."""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, Subquery

from games.models import Match, Seat
from press import access, selectors
from press.models import DeadRule, Message, Mute
from press.services import message_hide, message_post, mute_set, press_settings_set
from tests.press.conftest import make_user

pytestmark = pytest.mark.django_db
C = Message.Channel


def _before_readable(reader: access.Reader):
    """The reader's messages as the code before the compiled query chose them (a copy of
    ``access.readable_q`` and ``selectors.readable`` as they were)."""
    everything = Q()
    public = Q(channel__in=[C.PUBLIC, C.ANNOUNCE])
    if reader.director:
        q = everything
    elif reader.over and (reader.is_player or reader.press.archive_for_spectators):
        q = everything
    elif reader.is_player:
        if reader.press.dead == DeadRule.PUBLIC_ONLY and reader.match.state is not None \
                and not reader.alive:
            q = public
        else:
            q = public | Q(audience__contains=f",{reader.number},")
    elif reader.press.spectators_read_public:
        q = public
    else:
        q = Q(channel=C.ANNOUNCE)
    qs = Message.objects.filter(q, match=reader.match)
    if reader.is_player:
        muted = Mute.objects.filter(seat_id=reader.seat.pk).values("muted_seat")
        qs = qs.exclude(Q(from_seat__in=Subquery(muted)) & ~Q(channel=C.ANNOUNCE))
    return qs


def _before_page(reader, *, before_id=None, limit=selectors.PAGE_SIZE):
    qs = _before_readable(reader).filter(id__gt=0)
    if before_id is not None:
        qs = qs.filter(id__lt=before_id)
    rows = list(qs.order_by("-id")[:limit + 1])
    return [m.pk for m in reversed(rows[:limit])], len(rows) > limit


def _readers(match: Match, players, spectator, director) -> dict[str, access.Reader]:
    readers = {u.username: access.reader_for(match, u) for u in players}
    readers["spectator"] = access.reader_for(match, spectator)
    readers["visitor"] = access.reader_for(match, AnonymousUser())
    readers["director"] = access.reader_for(match, director)
    return {name: r for name, r in readers.items() if r is not None}  # None: no panel


def _same_as_before(readers: dict[str, access.Reader], probes: list[int]) -> dict[str, list]:
    """Every reader's newest page and older pages, compiled and as before; the compiled
    SQL is used (not the ORM fallback) for every reader type met."""
    seen = {}
    for name, reader in readers.items():
        for before_id in (None, *probes):
            for limit in (selectors.PAGE_SIZE, 2):
                messages, more = selectors.messages_page(reader, before_id=before_id,
                                                         limit=limit)
                got = ([m.pk for m in messages], more)
                assert got == _before_page(reader, before_id=before_id, limit=limit), (
                    name, before_id, limit)
                key = (access.readable_kind(reader), reader.is_player,
                       before_id is not None, limit)
                assert selectors._compiled_page(key) is not None, key
        seen[name] = selectors.messages_page(reader)[0]
    return seen


def test_each_reader_sees_exactly_what_they_saw_before(staff):
    ann, ben, cat = (make_user(n) for n in ("cann", "cben", "ccat"))
    from tests.games.views.conftest import new_match

    match = new_match(creator=ann, players=[ann, ben, cat], start=True, name="Compiled")
    spectator = make_user("cspec")
    seat = {u: Seat.objects.get(match=match, user=u).number for u in (ann, ben, cat)}
    texts = {}
    for user, to, text in ((ann, "all", "PUBLIC-ANN"), (ann, [seat[ben]], "PRIV-ANN-BEN"),
                           (ben, [seat[ann], seat[cat]], "GROUP-BEN"),
                           (cat, [seat[ben]], "PRIV-CAT-BEN"), (staff, "all", "ANNOUNCE"),
                           (cat, "all", "PUBLIC-CAT"), (ben, "all", "HIDDEN-BEN")):
        texts[text] = message_post(match=match, user=user, to=to, text=text).pk
    message_hide(match=match, actor=staff, message_id=texts["HIDDEN-BEN"])
    mute_set(match=match, user=ben, seat_number=seat[cat], muted=True)
    probes = sorted(texts.values())[2:5]
    match.refresh_from_db()

    seen = _same_as_before(_readers(match, [ann, ben, cat], spectator, staff), probes)
    by_text = {v: k for k, v in texts.items()}
    read = {name: {by_text[m.pk] for m in msgs} for name, msgs in seen.items()}
    public = {"PUBLIC-ANN", "ANNOUNCE", "PUBLIC-CAT", "HIDDEN-BEN"}
    assert read["cann"] == public | {"PRIV-ANN-BEN", "GROUP-BEN"}
    assert read["cben"] == {"PUBLIC-ANN", "ANNOUNCE", "HIDDEN-BEN", "PRIV-ANN-BEN",
                            "GROUP-BEN"}  # cat muted: her posts left out
    assert read["ccat"] == public | {"GROUP-BEN", "PRIV-CAT-BEN"}  # her own private one
    assert read["spectator"] == public
    assert read["director"] == set(texts)

    # the public board shut to spectators: announcements only
    press_settings_set(match=match, spectators_read_public=False)
    readers = _readers(match, [ann, ben, cat], spectator, staff)
    seen = _same_as_before(readers, probes)
    assert {by_text[m.pk] for m in seen["spectator"]} == {"ANNOUNCE"}

    # a dead player under "public only" reads the public board alone
    press_settings_set(match=match, dead=DeadRule.PUBLIC_ONLY)
    dead = dataclasses.replace(access.reader_for(match, ann),
                               _view={"players": [{"seat": seat[ann], "alive": False}]})
    assert access.readable_kind(dead) == access.PUBLIC
    seen = _same_as_before({"dead": dead}, probes)
    assert {by_text[m.pk] for m in seen["dead"]} == public

    # over: players read everything; spectators only with the archive open
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match.refresh_from_db()
    seen = _same_as_before(_readers(match, [ann, ben, cat], spectator, staff), probes)
    assert {by_text[m.pk] for m in seen["ccat"]} == set(texts)
    press_settings_set(match=match, archive_for_spectators=False)
    seen = _same_as_before(_readers(match, [ann, ben, cat], spectator, staff), probes)
    assert "PRIV-ANN-BEN" not in {by_text[m.pk] for m in seen["spectator"]}
    press_settings_set(match=match, archive_for_spectators=True)
    seen = _same_as_before(_readers(match, [ann, ben, cat], spectator, staff), probes)
    assert {by_text[m.pk] for m in seen["spectator"]} == set(texts)
