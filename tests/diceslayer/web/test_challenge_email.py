"""The challenged player is emailed (kind ``challenge``, diceslayer/emails.py): in their
language, with the link to answer and the one-click unsubscribe, following their phase-email
policy; a challenge answered before its email goes out sends nothing."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import Profile
from diceslayer import services
from games.emails import match_url
from games.models import Notification
from games.services.outbox import notifications_send_batch

pytestmark = pytest.mark.django_db


def _to(mailoutbox, user):
    return [m for m in mailoutbox if m.to == [user.email]]


def test_the_challenged_player_gets_an_email_with_the_link_to_answer(
        alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.versus_create(challenger=alice, opponent=bob)
    [mail] = _to(mailoutbox, bob)
    assert mail.subject == "alice challenges you to Dice Slayer"
    html = mail.alternatives[0][0]
    assert "Hello bob," in mail.body and "alice challenges you" in mail.body
    # the game's own page, where the challenged player (not seated yet) can answer; the
    # generic match page is for the seated (issue 23: it was a 404 for them)
    answer = settings.SITE_URL + reverse("diceslayer:play", args=[match.pk])
    assert "Accept or decline by" in mail.body and answer in mail.body
    assert match_url(match) + " " not in mail.body
    assert f'href="{answer}"' in html
    assert mail.extra_headers["List-Unsubscribe"].startswith("<http")
    assert not _to(mailoutbox, alice)


def test_in_the_readers_language(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    Profile.objects.filter(user=bob).update(language="it")
    with django_capture_on_commit_callbacks(execute=True):
        services.versus_create(challenger=alice, opponent=bob)
    [mail] = _to(mailoutbox, bob)
    assert mail.subject == "alice ti sfida a Dice Slayer"


def test_a_reader_with_phase_emails_off_or_on_the_digest_gets_none(
        alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    for mode in (Profile.EmailMode.OFF, Profile.EmailMode.DIGEST):
        Profile.objects.filter(user=bob).update(email_mode=mode)
        bob.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            services.versus_create(challenger=alice, opponent=bob)
    assert not _to(mailoutbox, bob)
    assert not Notification.objects.filter(kind="challenge").exists()


def test_a_challenge_answered_before_its_email_goes_out_sends_nothing(alice, bob, mailoutbox):
    match = services.versus_create(challenger=alice, opponent=bob)  # on-commit send not run
    row = Notification.objects.get(kind="challenge", recipient=bob)
    services.challenge_decline(match=match, user=bob)
    report = notifications_send_batch(ids=[row.pk])
    assert report.skipped == [row.pk] and not _to(mailoutbox, bob)
    row.refresh_from_db()
    assert row.error == "skipped: the challenge is no longer open"
