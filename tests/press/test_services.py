"""Press services: who may write where (rules, seats, teams, the dead), the text rules,
the rate limit, hiding (logged), reports and mutes."""

from __future__ import annotations

import pytest

from games.exceptions import ApplicationError
from games.models import DirectorAction, Match
from press import access, selectors
from press.models import DeadRule, Message, PressRules, Report
from press.services import (RateLimited, message_hide, message_post, message_report,
                            mute_set, press_settings_set)
from django.urls import reverse

from tests.press.conftest import client_for, kg_team_match, seat_no

pytestmark = pytest.mark.django_db


def _read(match, user):
    reader = access.reader_for(match, user)
    return [m.text for m in selectors.readable(reader).order_by("id")]


def test_public_message_is_read_by_every_seat_and_stamped_with_the_phase(trio):
    match, (ann, ben, cat) = trio
    m = message_post(match=match, user=ann, to="all", text="hello all")
    assert m.channel == Message.Channel.PUBLIC and m.phase_id is not None
    assert m.from_seat == seat_no(match, ann)
    for u in (ann, ben, cat):
        assert _read(match, u) == ["hello all"]


def test_private_message_is_read_only_by_its_members(trio):
    match, (ann, ben, cat) = trio
    message_post(match=match, user=ann, to=[seat_no(match, ben)], text="psst ben")
    assert _read(match, ann) == ["psst ben"]
    assert _read(match, ben) == ["psst ben"]
    assert _read(match, cat) == []


def test_group_conversation_holds_every_member(trio):
    match, (ann, ben, cat) = trio
    m = message_post(match=match, user=ben, to=[seat_no(match, ann), seat_no(match, cat)],
                     text="all three")
    assert sorted(m.members) == sorted(seat_no(match, u) for u in (ann, ben, cat))
    assert m.channel == Message.Channel.PRIVATE


@pytest.mark.parametrize("to, code", [
    ([], "INVALID"), ("everyone", "INVALID"), ([99], "INVALID"), (["1"], "INVALID"),
    ([True], "INVALID"), ("team", "NO_TEAM"),
])
def test_bad_targets_are_refused_and_nothing_is_saved(trio, to, code):
    match, (ann, ben, cat) = trio
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to=to, text="x")
    assert exc.value.code == code and 400 <= exc.value.client_status < 500
    assert not Message.objects.exists()


def test_writing_to_oneself_is_refused(trio):
    match, (ann, ben, cat) = trio
    with pytest.raises(ApplicationError):
        message_post(match=match, user=ann, to=[seat_no(match, ann)], text="me")


def test_text_rules(trio):
    match, (ann, *_rest) = trio
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to="all", text="x" * 2001)
    assert exc.value.code == "TOO_LONG"
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to="all", text="  \n ")
    assert exc.value.code == "EMPTY"
    m = message_post(match=match, user=ann, to="all", text="x" * 2000)
    assert len(m.text) == 2000
    m = message_post(match=match, user=ann, to="all", text="a\u202eb\x00c\r\nd")
    assert m.text == "abc\nd"


def test_a_stranger_cannot_post(trio):
    match, _ = trio
    from tests.games.views.conftest import make_user

    stranger = make_user("stranger")
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=stranger, to="all", text="hi")
    assert exc.value.code == "NOT_A_PARTICIPANT" and exc.value.status == 403


def test_press_rules_none_and_public_only(trio):
    match, (ann, ben, _cat) = trio
    press_settings_set(match=match, rules=PressRules.PUBLIC)
    match = Match.objects.get(pk=match.pk)
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to=[seat_no(match, ben)], text="secret")
    assert exc.value.code == "PRESS_DISABLED"
    message_post(match=match, user=ann, to="all", text="public is fine")
    press_settings_set(match=match, rules=PressRules.NONE)
    match = Match.objects.get(pk=match.pk)
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to="all", text="nothing")
    assert exc.value.code == "PRESS_DISABLED"


def test_game_defaults():
    assert access.default_rules("killgame") == PressRules.FULL
    assert access.default_rules("sanguosha") == PressRules.PUBLIC
    assert access.default_rules("diceslayer", {"variant": "versus1"}) == PressRules.FULL
    assert access.default_rules("diceslayer", {"variant": "solo"}) == PressRules.NONE


def test_rate_limit_answers_retry_after(trio, settings):
    settings.PRESS_RATE_LIMIT = (3, 60)
    match, (ann, ben, _cat) = trio
    for i in range(3):
        message_post(match=match, user=ann, to="all", text=f"m{i}")
    with pytest.raises(RateLimited) as exc:
        message_post(match=match, user=ann, to="all", text="too many")
    assert exc.value.status == 429 and 1 <= exc.value.retry_after <= 60
    message_post(match=match, user=ben, to="all", text="ben is not limited")
    assert Message.objects.count() == 4


def test_director_hides_a_message_and_the_log_says_so(trio, staff):
    match, (ann, ben, _cat) = trio
    m = message_post(match=match, user=ann, to=[seat_no(match, ben)], text="rude words")
    message_report(match=match, user=ben, message_id=m.pk, reason="rude")
    message_hide(match=match, actor=staff, message_id=m.pk)
    log = DirectorAction.objects.get(match=match, action="press_hide")
    assert log.actor == staff and log.details["message_id"] == m.pk
    assert Report.objects.get(message=m).resolved_at is not None
    rows = selectors.rows_for(access.reader_for(match, ben),
                              selectors.readable(access.reader_for(match, ben)))
    assert rows[0].hidden and rows[0].text == "" and "rude" not in str(rows[0].html)
    with pytest.raises(ApplicationError):
        message_hide(match=match, actor=ben, message_id=m.pk, hide=False)


def test_report_needs_a_message_the_reporter_can_read(trio):
    match, (ann, ben, cat) = trio
    m = message_post(match=match, user=ann, to=[seat_no(match, ben)], text="x")
    with pytest.raises(ApplicationError) as exc:
        message_report(match=match, user=cat, message_id=m.pk)
    assert exc.value.status == 404
    r1 = message_report(match=match, user=ben, message_id=m.pk)
    assert message_report(match=match, user=ben, message_id=m.pk).pk == r1.pk


def test_mute_hides_a_seat_for_me_only(trio):
    match, (ann, ben, cat) = trio
    message_post(match=match, user=ann, to="all", text="from ann")
    mute_set(match=match, user=ben, seat_number=seat_no(match, ann), muted=True)
    assert _read(match, ben) == [] and _read(match, cat) == ["from ann"]
    mute_set(match=match, user=ben, seat_number=seat_no(match, ann), muted=False)
    assert _read(match, ben) == ["from ann"]
    with pytest.raises(ApplicationError):
        mute_set(match=match, user=ben, seat_number=seat_no(match, ben), muted=True)


def test_director_posts_pinned_announcements(trio, staff):
    match, (ann, *_r) = trio
    m = message_post(match=match, user=staff, to="all", text="Deadline moved")
    assert m.channel == Message.Channel.ANNOUNCE and m.author_name == "Director"
    match = Match.objects.get(pk=match.pk)
    assert access.reader_for(match, ann).press.pinned == m
    html = client_for(ann).get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert "📌 Director" in html and "Deadline moved" in html
    with pytest.raises(ApplicationError):
        message_post(match=match, user=staff, to=[1], text="no private director")


def test_after_the_end_every_participant_reads_every_channel(trio):
    match, (ann, ben, cat) = trio
    message_post(match=match, user=ann, to=[seat_no(match, ben)], text="secret deal")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match = Match.objects.get(pk=match.pk)
    assert _read(match, cat) == ["secret deal"]
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=cat, to="all", text="late")
    assert exc.value.code == "MATCH_OVER"


def test_spectators_read_the_public_board_where_allowed_and_the_archive_if_allowed(trio):
    from tests.games.views.conftest import make_user

    match, (ann, ben, _cat) = trio
    watcher = make_user("watcher")
    message_post(match=match, user=ann, to="all", text="public")
    message_post(match=match, user=ann, to=[seat_no(match, ben)], text="private")
    assert _read(match, watcher) == ["public"]
    press_settings_set(match=match, spectators_read_public=False)
    assert _read(Match.objects.get(pk=match.pk), watcher) == []
    press_settings_set(match=match, archive_for_spectators=True)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert _read(Match.objects.get(pk=match.pk), watcher) == ["public", "private"]


def _dead(monkeypatch, number):
    real = access.Reader.view

    def view(self):
        v = dict(real(self))
        v["players"] = [{"seat": s.number, "alive": s.number != number}
                        for s in self.match.seats.all()]
        return v
    monkeypatch.setattr(access.Reader, "view", view)


def test_dead_players_read_only_by_default(trio, monkeypatch):
    match, (ann, ben, _cat) = trio
    message_post(match=match, user=ben, to=[seat_no(match, ann)], text="before death")
    _dead(monkeypatch, seat_no(match, ann))
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to="all", text="boo")
    assert exc.value.code == "DEAD"
    assert _read(Match.objects.get(pk=match.pk), ann) == ["before death"]


def test_dead_players_on_the_public_board_only(trio, monkeypatch):
    match, (ann, ben, _cat) = trio
    press_settings_set(match=match, dead=DeadRule.PUBLIC_ONLY)
    _dead(monkeypatch, seat_no(match, ann))
    match = Match.objects.get(pk=match.pk)
    message_post(match=match, user=ben, to=[seat_no(match, ann)], text="private")
    message_post(match=match, user=ben, to="all", text="public")
    assert _read(match, ann) == ["public"]
    message_post(match=match, user=ann, to="all", text="from beyond")
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=ann, to=[seat_no(match, ben)], text="no")
    assert exc.value.code == "DEAD"
    assert selectors.unread_counts(ann, [match.pk]) == {match.pk: 1}  # no count from elsewhere


def test_team_channel_members_come_from_the_engine(db):
    match, users = kg_team_match(4)
    from games import selectors as gs
    from games.models import Seat

    views = {u: gs.player_view_for(match, Seat.objects.get(match=match, user=u)) for u in users}
    author = users[0]
    allies = {a["seat"] for a in views[author]["allies"]}
    assert allies, "teams mode with 2 teams of 2 gives every player a partner"
    m = message_post(match=match, user=author, to="team", text="team plan")
    assert m.channel == Message.Channel.TEAM
    assert set(m.members) == allies | {seat_no(match, author)}
    for u in users:
        expected = ["team plan"] if seat_no(match, u) in m.members else []
        assert _read(match, u) == expected
