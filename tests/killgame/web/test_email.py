"""The new-phase email carries the reader's diary lines of the phase that closed and what
they can do now (the Kill Game block included through the registry's email hook)."""

from __future__ import annotations

import pytest

from games import emails
from games.models import Notification
from tests.killgame.web.conftest import close_phase, kg_match, seat_of, submit

pytestmark = pytest.mark.django_db


def test_new_phase_email_has_diary_lines_and_what_you_can_do_now(db):
    match, users = kg_match(3)
    alice, bob, carol = users
    submit(match, alice, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, bob, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "cave_sud_est"})
    close_phase(match)
    n = Notification.objects.filter(recipient=alice, match=match,
                                    kind=Notification.Kind.NEW_PHASE).latest("id")
    assert n.payload["seat"] == seat_of(match, alice).number
    msg = emails.build(n)
    text = msg.body
    html = msg.alternatives[0][0]
    assert "You start in Ponte Ovest." in text  # the diary of the phase that closed
    assert "What you can do now:" in text and "What you can do now:" in html
    assert "You are in Ponte Ovest with u1." in text
    assert "You can attack with: sniper rifle, fists." in text
    # only the reader's own lines: Carol's start zone is not in Alice's mail
    assert "Cave Sud-Est" not in text.replace("Next zone", "")
    close_phase(match)
    n = Notification.objects.filter(recipient=alice, match=match,
                                    kind=Notification.Kind.NEW_PHASE).latest("id")
    text = emails.build(n).body
    assert "You can move to" in text and "The market is" in text
