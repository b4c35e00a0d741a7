"""Accounts people control: download my data (JSON), delete my account (seats handed over
as absent seats are, "former player" in diaries, press and pages, personal data erased,
records kept), change my email with a confirmation link."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, Profile
from games import selectors
from games.models import Match, Notification
from games.services.orders import order_submit
from games.services.phases import phase_close
from players.models import Rating, SeatRecord
from press.models import Message
from press.services import message_post
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    c = Client(raise_request_exception=False)
    c.force_login(user)
    return c


def _seats(match):
    return list(match.seats.order_by("number"))


def test_export_holds_my_data_and_not_another_seats_secrets():
    match = make_match(players=2)
    ann_seat, ben_seat = _seats(match)
    ann, ben = ann_seat.user, ben_seat.user
    order_submit(match=match, seat=ann_seat, payload={"guess": 11})
    order_submit(match=match, seat=ben_seat, payload={"guess": 77})
    message_post(match=match, user=ann, to="all", text="hello all")
    message_post(match=match, user=ben, to=[ann_seat.number], text="psst ann")
    ApiToken.objects.create(user=ann, name="my bot")
    resp = _client(ann).get(reverse("account-export"))
    assert resp.status_code == 200
    assert resp["Content-Disposition"].startswith("attachment;")
    data = resp.json()
    assert data["ok"] is True and data["profile"]["username"] == ann.username
    assert data["profile"]["email"] == ann.email
    [m] = data["matches"]
    assert m["id"] == match.pk and m["seat"] == ann_seat.number
    assert [o["order"] for o in m["orders"]] == [{"guess": 11}]
    texts = " ".join(line["text"] for line in m["diary"])
    assert "11" in texts and "77" not in texts  # ben's guess is ben's secret
    assert {msg["text"] for msg in data["messages"]} == {"hello all", "psst ann"}
    assert [t["name"] for t in data["api_tokens"]] == ["my bot"]
    assert "key_hash" not in resp.content.decode()
    # an API token works too; a visitor gets the API's 401
    token = ApiToken.objects.create(user=ann, name="export", scope="read")
    assert Client().get(reverse("account-export"),
                        HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    assert Client().get(reverse("account-export")).status_code == 401


def test_delete_needs_the_password_and_changes_nothing_without_it():
    user = make_user()
    c = _client(user)
    assert c.get(reverse("account-delete")).status_code == 200
    resp = c.post(reverse("account-delete"), {"password": "wrong"})
    assert resp.status_code == 400
    assert "not your password" in resp.content.decode()
    user.refresh_from_db()
    assert user.is_active and user.email


def test_delete_hands_seats_over_and_keeps_the_records_anonymised():
    forming = make_match(players=2, start=False)
    running = make_match(players=3)
    finished = make_match(players=2)
    ann = _seats(running)[0].user
    # ann also plays the finished match and waits in the forming one
    from games.services.matches import match_join

    match_join(match=forming, user=ann, invite_code=forming.invite_code)
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    fin_seat = finished.seats.first()
    fin_seat.user = ann
    fin_seat.save()
    Match.objects.filter(pk=running.pk).update(name=f"{ann.username} vs the rest")
    message_post(match=running, user=ann, to="all", text="gg")
    Rating.objects.create(user=ann, game="guess", mode="ffa")
    Notification.objects.create(recipient=ann, kind="director")
    old_name, old_email = ann.username, ann.email
    seat = running.seats.get(user=ann)
    order_submit(match=running, seat=seat, payload={"guess": 5})

    resp = _client(ann).post(reverse("account-delete"), {"password": "pw-" + old_name})
    assert resp.status_code == 302

    ann.refresh_from_db()
    assert not ann.is_active and not ann.has_usable_password() and ann.email == ""
    assert ann.username.startswith("former player #")
    assert not get_user_model().objects.filter(username=old_name).exists()
    # login fails
    login = Client()
    resp = login.post(reverse("accounts:login"), {"username": old_name,
                                                  "password": "pw-" + old_name})
    assert resp.status_code == 200 and "_auth_user_id" not in login.session
    # forming: seat given up; running: absent and open for a replacement; finished: kept
    assert not forming.seats.filter(user=ann).exists()
    record = SeatRecord.objects.get(seat=seat)
    assert record.absent_since and record.takeover_open_since
    assert finished.seats.filter(user=ann).exists()
    # records kept, anonymised
    assert Rating.objects.filter(user=ann).exists()
    assert not Notification.objects.filter(recipient=ann).exists()
    assert Message.objects.get(text="gg").author_name == ann.username
    running.refresh_from_db()
    assert old_name not in running.name and "former player" in running.name
    assert not Profile.objects.filter(user=ann, email_verified_at__isnull=False).exists()
    # the name shown is "former player": seat names, diary lines, press, the page
    assert selectors.seat_names(running)[seat.number] == "former player"
    other = running.seats.exclude(user=ann).first().user
    page = _client(other).get(reverse("games:match-detail", args=[running.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and "former player" in body
    assert old_name not in body and old_email not in body
    api = _client(other).get(reverse("press:api-messages", args=[running.pk])).json()
    assert [m["from_name"] for m in api["messages"]] == ["former player"]
    # the seat plays the default at the deadline
    phase = selectors.current_phase(running)
    assert phase_close(phase_id=phase.pk, force=True)


def test_delete_shows_former_player_in_italian():
    from django.utils import translation

    match = make_match(players=2)
    ann = _seats(match)[0].user
    _client(ann).post(reverse("account-delete"), {"password": "pw-" + ann.username})
    with translation.override("it"):
        names = selectors.seat_names(match)
    assert "former player" not in names.values()
    assert any(re.search(r"giocat", n) for n in names.values())


def test_change_email_with_a_confirmation_link():
    user = make_user("emma")
    taken = make_user("taken")
    c = _client(user)
    resp = c.post(reverse("accounts:email-change"), {"new_email": taken.email,
                                                     "password": "pw-emma"})
    assert resp.status_code == 400  # another account's address
    resp = c.post(reverse("accounts:email-change"), {"new_email": "new@example.org",
                                                     "password": "wrong"})
    assert resp.status_code == 400
    mail.outbox.clear()
    resp = c.post(reverse("accounts:email-change"), {"new_email": "new@example.org",
                                                     "password": "pw-emma"})
    assert resp.status_code == 302
    user.refresh_from_db()
    assert user.email == "emma@example.com"  # nothing changes before the link
    [sent] = mail.outbox
    assert sent.to == ["new@example.org"]
    url = re.search(r"http://testserver(/accounts/email/confirm/\S+/)", sent.body).group(1)
    assert c.get(url).status_code == 200
    user.refresh_from_db()
    assert user.email == "emma@example.com"  # GET asks only
    assert c.post(url).status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.org" and user.profile.email_verified_at is not None
    assert mail.outbox[-1].to == ["emma@example.com"]  # the old address is told
    assert c.post(url).status_code == 400  # used: no longer valid
    assert Client().get("/accounts/email/confirm/junk/").status_code == 400


def test_wrong_passwords_on_the_delete_page_are_throttled(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "password_confirm": "3/h"}
    user = make_user()
    c = _client(user)
    for _ in range(3):
        assert c.post(reverse("account-delete"), {"password": "guess"}).status_code == 400
    assert c.post(reverse("account-delete"), {"password": "guess"}).status_code == 429
    resp = c.post(reverse("account-delete"), {"password": "pw-" + user.username})
    assert resp.status_code == 429 and resp["Retry-After"]
    user.refresh_from_db()
    assert user.is_active  # not even the right password, for now
