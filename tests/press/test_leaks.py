"""Leak tests for messages in every channel kind (public board with spectators shut out,
private 1:1 and group, Kill Game team channel, director announcement): a message's text
reaches its channel's members only — pages, htmx fragments, API answers, emails and the
replay — before the end. A team channel never tells an opponent who is in it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Seat
from press.services import message_post, press_settings_set
from tests.press.conftest import client_for, kg_team_match, make_user

pytestmark = pytest.mark.django_db


def _urls(match: Match) -> list[tuple[str, dict]]:
    urls = [
        (reverse("games:match-detail", args=[match.pk]), {}),
        (reverse("games:match-poll", args=[match.pk]), {"v": 0}),
        (reverse("press:page", args=[match.pk]), {}),
        (reverse("press:list", args=[match.pk]), {"after": 0}),
        (reverse("press:unread"), {}),
        (reverse("press:api-messages", args=[match.pk]), {}),
        (reverse("games:api-match", args=[match.pk]), {}),
        (reverse("games:api-diary", args=[match.pk]), {}),
    ]
    if match.game == "killgame":
        urls += [(reverse("killgame:watch", args=[match.pk]), {}),
                 (reverse("killgame:replay", args=[match.pk]), {})]
    return urls


def _served(client: Client, match: Match) -> str:
    out = []
    for url, params in _urls(match):
        resp = client.get(url, params)
        assert resp.status_code < 500, url
        out.append(resp.content.decode())
    return "\n".join(out)


def _emails(mailoutbox) -> dict[str, str]:
    by = {}
    for m in mailoutbox:
        html = "".join(a[0] for a in getattr(m, "alternatives", []))
        by.setdefault(m.to[0], "")
        by[m.to[0]] += m.subject + m.body + html
    return by


def _check(match, text, members, everyone, mailoutbox):
    spectator = make_user(f"spec{match.pk}")
    mails = _emails(mailoutbox)
    for user in everyone:
        served = _served(client_for(user), match)
        if user in members:
            assert text in served, user
        else:
            assert text not in served, user
            assert text not in mails.get(user.email, ""), user
    assert text not in _served(client_for(spectator), match)
    assert text not in _served(Client(), match)


@pytest.fixture
def sent(django_capture_on_commit_callbacks, mailoutbox):
    def post(**kw):
        with django_capture_on_commit_callbacks(execute=True):
            return message_post(**kw)
    return post


def test_private_one_to_one_and_group_messages_stay_in_their_conversation(trio, sent,
                                                                          mailoutbox):
    match, users = trio
    ann, ben, cat = users
    seat = {u: Seat.objects.get(match=match, user=u).number for u in users}
    sent(match=match, user=ann, to=[seat[ben]], text="SECRET-ONE-TO-ONE")
    _check(match, "SECRET-ONE-TO-ONE", {ann, ben}, users, mailoutbox)
    assert "SECRET-ONE-TO-ONE" in _emails(mailoutbox)[ben.email]
    dave = make_user("dave")
    from games.services.matches import match_create, match_join, match_start

    four = match_create(game="guess", name="Four", config={"rounds": 2, "timing": "check"},
                        min_players=2, max_players=10, schedule={"mode": "duration", "hours": 24})
    for u in (ann, ben, cat, dave):
        match_join(match=four, user=u)
    match_start(match=four)
    four.refresh_from_db()
    s4 = {u: Seat.objects.get(match=four, user=u).number for u in (ann, ben, cat, dave)}
    sent(match=four, user=ben, to=[s4[ann], s4[cat]], text="SECRET-GROUP")
    _check(four, "SECRET-GROUP", {ann, ben, cat}, [ann, ben, cat, dave], mailoutbox)


def test_public_board_closed_to_spectators_when_the_match_says_so(trio, sent, mailoutbox):
    match, users = trio
    press_settings_set(match=match, spectators_read_public=False)
    sent(match=match, user=users[0], to="all", text="PUBLIC-FOR-SEATS")
    match = Match.objects.get(pk=match.pk)
    _check(match, "PUBLIC-FOR-SEATS", set(users), users, mailoutbox)


def test_announcements_reach_the_seats_not_strangers_of_a_private_match(db, sent, mailoutbox,
                                                                       staff):
    from tests.games.views.conftest import new_match

    a, b = make_user("pa"), make_user("pb")
    match = new_match(creator=a, players=[a, b], start=True, private=True)
    sent(match=match, user=staff, to="all", text="ANNOUNCEMENT-X")
    _check(match, "ANNOUNCEMENT-X", {a, b}, [a, b], mailoutbox)
    mails = _emails(mailoutbox)
    assert "ANNOUNCEMENT-X" in mails[a.email] and "ANNOUNCEMENT-X" in mails[b.email]


def test_team_channel_is_for_members_and_hides_who_is_in_it(db, sent, mailoutbox):
    match, users = kg_team_match(4)
    author = users[0]
    m = sent(match=match, user=author, to="team", text="TEAM-PLAN-Z")
    members = {u for u in users if Seat.objects.get(match=match, user=u).number in m.members}
    assert len(members) == 2
    _check(match, "TEAM-PLAN-Z", members, users, mailoutbox)
    # an opponent's answers carry no trace of the team message (not even its id)
    opponent = next(u for u in users if u not in members)
    api = client_for(opponent).get(reverse("press:api-messages", args=[match.pk])).json()
    assert api["messages"] == [] and api["last_id"] == 0
    mate = next(u for u in members if u != author)
    got = client_for(mate).get(reverse("press:api-messages", args=[match.pk])).json()
    assert got["messages"][0]["to"] == "team"


def test_districts_partners_cannot_use_the_team_channel_before_they_are_revealed(db):
    from games.exceptions import ApplicationError

    match, users = kg_team_match(4, mode="districts", prefix="d")
    with pytest.raises(ApplicationError) as exc:
        message_post(match=match, user=users[0], to="team", text="too early")
    assert exc.value.code == "NO_TEAM"


def test_after_the_end_the_archive_opens_to_participants(trio):
    match, (ann, ben, cat) = trio
    seat_b = Seat.objects.get(match=match, user=ben).number
    message_post(match=match, user=ann, to=[seat_b], text="OLD-SECRET")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match = Match.objects.get(pk=match.pk)
    assert "OLD-SECRET" in _served(client_for(cat), match)
    assert "OLD-SECRET" not in _served(client_for(make_user("late")), match)
