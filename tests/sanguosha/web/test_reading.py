"""What a seated player reads on the table (issue #10): whose turn it is and what the reader
may do now (never "Your Play phase" during someone else's turn), a private table's invite
link for its players, and a log that names players ("you" for the reader), never a seat or
ask number."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Match, Seat
from django.test import Client

from games.services.phases import phase_close
from tests.sanguosha.web.conftest import (make_player, new_table, open_phase, page_text,
                                          post_answer, seat_client, seat_user, table_at,
                                          table_url)

pytestmark = pytest.mark.django_db


def _play_table():
    match = table_at("play")
    ask = match.state["ask"]
    return match, ask["awaited"][0]


def test_only_the_current_player_reads_your_play_phase():
    match, cur = _play_table()
    name = seat_user(match, cur).get_username()
    mine = page_text(seat_client(match, cur).get(table_url(match)))
    assert "Your move: Your Play phase" in mine and "your turn" in mine
    other = (cur + 1) % 5
    text = page_text(seat_client(match, other).get(table_url(match)))
    assert "Your Play phase" not in text and "Your move" not in text
    assert f"{name}'s turn" in text and "Play phase" in text
    assert f"Nothing for you to do now: waiting for {name}." in text


def test_log_names_players_and_says_you_never_seat_or_ask_numbers():
    match, cur = _play_table()
    resp = post_answer(seat_client(match, cur), match, {"end": True})
    assert resp.status_code in (200, 302)
    phase = open_phase(match)
    if phase is not None and phase.closed_at is None and cur in (phase.awaited or []):
        phase_close(phase_id=phase.pk)  # the close the check-in enqueues on commit
    name = seat_user(match, cur).get_username()
    for reader in (cur, (cur + 1) % 5):
        html = seat_client(match, reader).get(table_url(match)).content.decode()
        log = page_text_of_log(html)
        assert log, "the log is empty"
        assert not re.search(r"\bseat \d", log, re.I), log
        assert not re.search(r"\bAsk \d", log), log
        if reader == cur:
            assert "Your Play phase: use a card or end it? — answered." in log
        else:
            assert f"{name}'s Play phase: use a card or end it? — answered." in log


def page_text_of_log(html: str) -> str:
    m = re.search(r'<section class="card sgs-log" id="log".*?</section>', html, re.S)
    return page_text(type("R", (), {"content": m.group(0).encode()})()) if m else ""


def test_private_table_shows_its_invite_link_to_seated_players_only():
    match = new_table(4, start=False, seed="inv-1")
    Match.objects.filter(pk=match.pk).update(is_private=True)
    invite = reverse("games:match-invite", args=[match.invite_code])
    seated = _first_player(match).get(table_url(match)).content.decode()
    assert invite in seated and 'id="invite-url"' in seated
    stranger = Client()  # a stranger cannot open a private table at all
    stranger.force_login(make_player("inv-stranger"))
    assert stranger.get(table_url(match)).status_code == 404
    public = new_table(4, start=False, seed="inv-2")
    assert 'id="invite-url"' not in _first_player(public).get(table_url(public)).content.decode()


def _first_player(match) -> Client:
    c = Client()
    c.force_login(Seat.objects.filter(match=match).select_related("user").first().user)
    return c
