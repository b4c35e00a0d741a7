"""Message emails through the outbox: one email per conversation per quiet period (the
rest batched at its end), none for the public board, the reader's settings and one-click
unsubscribe honoured, nothing sent for what the reader already read on the site."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from games.models import Notification, Seat
from press.emails import press_emails_due
from press.services import message_post
from tests.conftest import CURRENT_TIME
from tests.press.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    def _post(**kw):
        with django_capture_on_commit_callbacks(execute=True):
            return message_post(**kw)
    return _post


def _to(mailoutbox, user):
    return [m for m in mailoutbox if m.to == [user.email]]


def test_one_email_per_conversation_per_quiet_period_then_a_batch(
        trio, post, mailoutbox, django_capture_on_commit_callbacks):
    match, (ann, ben, cat) = trio
    b = Seat.objects.get(match=match, user=ben).number
    with time_machine.travel(CURRENT_TIME, tick=False):
        post(match=match, user=ann, to=[b], text="first")
    assert len(_to(mailoutbox, ben)) == 1 and "first" in _to(mailoutbox, ben)[0].body
    with time_machine.travel(CURRENT_TIME + timedelta(minutes=2), tick=False):
        post(match=match, user=ann, to=[b], text="second")
        post(match=match, user=ann, to=[b], text="third")
        post(match=match, user=ann, to="all", text="public: no email")
    assert len(_to(mailoutbox, ben)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert press_emails_due(now=CURRENT_TIME + timedelta(minutes=9)) == 0
        assert press_emails_due(now=CURRENT_TIME + timedelta(minutes=10)) == 1
    mails = _to(mailoutbox, ben)
    assert len(mails) == 2
    assert "second" in mails[1].body and "third" in mails[1].body and "first" not in mails[1].body
    assert "public: no email" not in mails[1].body
    assert mails[1].extra_headers["List-Unsubscribe"].startswith("<http")
    assert not _to(mailoutbox, cat) and not _to(mailoutbox, ann)


def test_nothing_is_sent_for_messages_read_on_the_site(trio, post, mailoutbox):
    match, (ann, ben, _c) = trio
    b = Seat.objects.get(match=match, user=ben).number
    with time_machine.travel(CURRENT_TIME, tick=False):
        post(match=match, user=ann, to=[b], text="first")
    with time_machine.travel(CURRENT_TIME + timedelta(minutes=1), tick=False):
        post(match=match, user=ann, to=[b], text="second")
    client_for(ben).get(reverse("games:match-detail", args=[match.pk]))
    assert press_emails_due(now=CURRENT_TIME + timedelta(minutes=11)) == 0
    assert len(_to(mailoutbox, ben)) == 1


def test_reader_settings_are_honoured(trio, post, mailoutbox):
    from accounts.models import Profile

    match, (ann, ben, cat) = trio
    Profile.objects.filter(user=ben).update(email_messages=False)
    Profile.objects.filter(user=cat).update(email_mode=Profile.EmailMode.DIGEST)
    Profile.objects.filter(user=ann).update(email_mode=Profile.EmailMode.OFF)
    seats = [Seat.objects.get(match=match, user=u).number for u in (ben, cat)]
    post(match=match, user=ann, to=seats, text="hello you two")
    assert not _to(mailoutbox, ben) and not _to(mailoutbox, cat)
    assert not Notification.objects.filter(kind="message").exists()
    # phase emails off does not stop messages: they are set apart
    post(match=match, user=ben, to=[Seat.objects.get(match=match, user=ann).number],
         text="for ann")
    assert "for ann" in _to(mailoutbox, ann)[0].body


def test_digest_readers_get_their_unread_messages_in_the_digest(
        trio, post, mailoutbox, django_capture_on_commit_callbacks):
    from accounts.models import Profile
    from games.services.notifications import digests_send

    match, (ann, ben, cat) = trio
    Profile.objects.filter(user=cat).update(email_mode=Profile.EmailMode.DIGEST,
                                            timezone="UTC")
    c = Seat.objects.get(match=match, user=cat).number
    b = Seat.objects.get(match=match, user=ben).number
    post(match=match, user=ann, to=[c], text="DIGEST-PRIVATE")
    post(match=match, user=ann, to=[b], text="NOT-FOR-CAT")
    assert not _to(mailoutbox, cat)
    from django.utils.timezone import now

    from games.models import Match
    from games.services.orders import order_submit
    from games.services.seats import seat_checkin

    for u in (ann, ben, cat):  # a phase closes: the digest has diary lines for the match
        seat = Seat.objects.get(match=match, user=u)
        order_submit(match=Match.objects.get(pk=match.pk), seat=seat, payload={"guess": 5})
        with django_capture_on_commit_callbacks(execute=True):
            seat_checkin(match=Match.objects.get(pk=match.pk), seat=seat)
    mailoutbox.clear()

    # the next 07:00 UTC after the phase closed (a digest looks at most a day back)
    at7 = now().replace(hour=7, minute=0, second=0, microsecond=0)
    if at7 <= now():
        at7 += timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert digests_send(now=at7) == 1
    body = _to(mailoutbox, cat)[0].body
    assert "Message from ann (private): DIGEST-PRIVATE" in body and "NOT-FOR-CAT" not in body


def test_one_click_unsubscribe_link_works(trio, post, mailoutbox):
    match, (ann, ben, _c) = trio
    b = Seat.objects.get(match=match, user=ben).number
    post(match=match, user=ann, to=[b], text="hi")
    link = _to(mailoutbox, ben)[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = link.split("://", 1)[1].split("/", 1)[1]
    resp = client_for(None).post("/" + path)
    assert resp.status_code in (200, 302)
    post(match=match, user=ann, to=[b], text="after unsubscribing")
    assert len(_to(mailoutbox, ben)) == 1
    ben.profile.refresh_from_db()
    assert ben.profile.email_messages is False and ben.profile.email_mode != "off"
