"""Solo in the browser (server side): starting a game, the board with SVG dice and the
keyboard help, a pick that resolves at once (no-JS and htmx), bad picks that change
nothing, the hint and the scoring picks, the game-over screen, the replay rebuilt from
seed and moves, another user's game refused, and query counts.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from diceslayer import engine, selectors, services
from diceslayer.engine.state import Player, State, Variant
from games.models import Match, Order, Phase
from tests.diceslayer.web.conftest import (
    open_phase, page_text, pick_post, play_to_end, set_state, state_of,
)

pytestmark = pytest.mark.django_db

PLAY_PAGE_MAX_QUERIES = 10 + 2  # measured 9 (5 or 40 rounds played), + the press panel
PLAY_PAGE_KEPT_MAX_QUERIES = 8  # measured 8: the board and press panel kept (kept_board)
BOARD_MAX_QUERIES = 10  # measured 9 with hint and scoring picks
REPLAY_MAX_QUERIES = 11  # measured 10: the moves are read in two queries
HOME_MAX_QUERIES = 10  # measured 9
HX = {"HX-Request": "true"}


def play_url(match):
    return reverse("diceslayer:play", args=[match.pk])


def test_new_solo_game_starts_at_once_and_shows_dice_and_keyboard_help(alice, alice_client):
    resp = alice_client.post(reverse("diceslayer:solo-new"), {"variant": "solo"})
    match = Match.objects.get(game="diceslayer", created_by=alice)
    assert resp.status_code == 302 and resp["Location"] == play_url(match)
    assert match.status == Match.Status.RUNNING and match.is_private
    phase = open_phase(match)
    assert phase.deadline_at is None and phase.awaited == [0]  # instant play: no deadline
    page = alice_client.get(play_url(match))
    html = page.content.decode()
    plate = state_of(match).players[0].plate
    assert len(plate) == 3
    for face in set(plate):  # one keyboard-addressable submit button per face
        assert f'name="pick" value="{face}" class="ds-die' in html
        assert f'data-key="{face}"' in html
        assert f'class="die die-{face} ' in html  # drawn as an SVG face with pips
    assert html.count('class="pip"') >= sum(plate)
    text = page_text(page)
    assert "Keyboard: press 1–6 to pick a die of that face" in text
    assert "Round 1" in text
    # the no-JS form posts to the pick URL; htmx enhances the same form
    assert f'action="{reverse("diceslayer:pick", args=[match.pk])}"' in html
    assert 'hx-post=' in html and "diceslayer/diceslayer.js" in html


def test_solo_pick_resolves_at_once_without_javascript(solo, alice_client):
    before = state_of(solo)
    face = before.players[0].plate[0]
    resp = pick_post(alice_client, solo, pick=face)
    assert resp.status_code == 302
    after = state_of(solo)
    assert after.turn == 2 and after.pending is None
    assert after.players[0].stock[-1] == face
    assert Phase.objects.filter(match=solo, closed_at__isnull=False).count() == 1
    assert open_phase(solo).number == 2
    assert list(Order.objects.filter(phase__match=solo).values_list("payload", flat=True)) == [
        {"pick": face}]
    assert "Round 2" in page_text(alice_client.get(play_url(solo)))


def test_solo_pick_over_htmx_answers_with_the_new_board(solo, alice_client):
    face = state_of(solo).players[0].plate[-1]
    resp = pick_post(alice_client, solo, pick=face, headers=HX)
    assert resp.status_code == 200
    html = resp.content.decode()
    assert html.lstrip().startswith("<section id=\"ds-board\"")
    assert "<html" not in html
    assert "Round 2" in page_text(resp)
    solo.refresh_from_db()
    assert f'name="version" value="{solo.version}"' in html


@pytest.mark.parametrize("fields,status,message", [
    ({"pick": "ABSENT"}, 422, "There is no {absent} on the plate to pick."),
    ({"pick": "7"}, 400, "A die face is a whole number from 1 to 6"),
    ({"pick": "x"}, 400, "Choose a die: a face from 1 to 6."),
    ({"pick": "²"}, 400, "Choose a die: a face from 1 to 6."),
    ({"pick": "99999999999999999999"}, 400, "A die face is a whole number from 1 to 6"),
    ({}, 400, "Choose a die to pick."),
    ({"wild": "3"}, 422, "Wild dice are only in the solo game with wild dice."),
    ({"pick_opponent": "3"}, 422, "Solo has no opponent's field to pick from."),
    ({"bomb": "3"}, 422, "The bomb exists only in versus"),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_pick_gets_a_clear_message_and_changes_nothing(solo, alice_client, fields, status,
                                                           message, htmx):
    plate = state_of(solo).players[0].plate
    absent = next(f for f in range(1, 7) if f not in plate)
    fields = {k: (str(absent) if v == "ABSENT" else v) for k, v in fields.items()}
    solo.refresh_from_db()
    before = (solo.version, solo.state)
    resp = pick_post(alice_client, solo, headers=HX if htmx else None, **fields)
    assert resp.status_code == status
    assert message.format(absent=absent) in page_text(resp)
    solo.refresh_from_db()
    assert (solo.version, solo.state) == before
    assert not Order.objects.filter(phase__match=solo).exists()
    if htmx:
        assert "<html" not in resp.content.decode()


def test_stale_and_damaged_forms_are_refused(solo, alice_client):
    solo.refresh_from_db()
    face = state_of(solo).players[0].plate[0]
    url = reverse("diceslayer:pick", args=[solo.pk])
    resp = alice_client.post(url, {"pick": face, "version": solo.version - 1,
                                   "phase_id": open_phase(solo).pk})
    assert resp.status_code == 409 and "changed since you loaded" in page_text(resp)
    resp = alice_client.post(url, {"pick": face, "version": "abc"})
    assert resp.status_code == 400 and "This form is damaged" in page_text(resp)
    assert not Order.objects.filter(phase__match=solo).exists()


def test_hint_shows_the_bots_move_and_its_reason(solo, alice_client):
    state = state_of(solo)
    advice = engine.hint(state, 0)
    resp = alice_client.get(reverse("diceslayer:board", args=[solo.pk]) + "?hint=1", headers=HX)
    assert resp.status_code == 200
    text = page_text(resp)
    assert "The bot suggests:" in text
    assert advice["why"] in text
    # the suggested die is marked on the plate (once)
    html = resp.content.decode()
    assert html.count("hinted") == 1
    assert f'value="{advice["order"]["pick"]}" class="ds-die hinted"' in html
    # no-JS: the same through the page's link
    assert advice["why"] in page_text(alice_client.get(play_url(solo) + "?hint=1"))


def test_scoring_picks_are_listed_and_highlighted_on_request(solo, alice_client):
    # Worked example of rules §1: stock 5,3 + pick 4 → run 3-4-5 removes 2s and 6s.
    set_state(solo, State(variant=Variant.SOLO,
                          players=(Player(plate=(1, 2, 2, 2, 4, 6, 6), stock=(5, 3)),), turn=5))
    plain = alice_client.get(play_url(solo)).content.decode()
    assert "ds-die hot" not in plain
    resp = alice_client.get(reverse("diceslayer:board", args=[solo.pk]) + "?patterns=1",
                            headers=HX)
    html = resp.content.decode()
    assert 'value="4" class="ds-die hot"' in html
    assert 'value="1" class="ds-die"' in html  # a pick that removes nothing is not lit
    text = page_text(resp)
    assert "Pick a 4: run, removes 2-2-2-6-6 for +25" in text


def test_game_over_screen_shows_the_score_and_a_replay(solo, alice, alice_client):
    play_to_end(solo, {0: alice})
    solo.refresh_from_db()
    assert solo.status == Match.Status.FINISHED
    score = engine.load(solo.state).players[0].score
    resp = alice_client.get(play_url(solo))
    text = page_text(resp)
    assert "Game over" in text and f"Final score {score}" in text
    assert 'name="pick"' not in resp.content.decode()  # nothing left to press
    assert "Replay the game" in text and "Play again" in text
    # the replay is rebuilt from the seed and the recorded moves, and ends where the game did
    steps = selectors.replay_steps(solo)
    assert engine.dump(steps[-1].state) == solo.state
    assert len(steps) == Phase.objects.filter(match=solo).count() + 1
    first = alice_client.get(reverse("diceslayer:replay", args=[solo.pk]) + "?step=0")
    assert first.status_code == 200 and "The start" in page_text(first)
    assert 'id="ds-next"' in first.content.decode()
    last = alice_client.get(reverse("diceslayer:replay", args=[solo.pk]))
    assert f"final score {score}" in page_text(last)
    assert 'id="ds-next"' not in last.content.decode()
    mid = alice_client.get(reverse("diceslayer:replay", args=[solo.pk]) + "?step=1")
    first_pick = Order.objects.filter(phase__match=solo).order_by("id").first().payload["pick"]
    assert f"alice: picked a {first_pick}" in page_text(mid)
    # junk steps are clamped, never a 500
    assert alice_client.get(reverse("diceslayer:replay", args=[solo.pk]) + "?step=-5").status_code == 200
    assert alice_client.get(reverse("diceslayer:replay", args=[solo.pk]) + "?step=zz").status_code == 200


def test_a_pick_after_the_game_ended_is_refused(solo, alice, alice_client):
    play_to_end(solo, {0: alice})
    solo.refresh_from_db()
    before = solo.state
    resp = alice_client.post(reverse("diceslayer:pick", args=[solo.pk]), {"pick": 1})
    assert resp.status_code == 409 and "The match is over." in page_text(resp)
    solo.refresh_from_db()
    assert solo.state == before


def test_another_users_solo_game_is_refused(solo, mallory_client):
    for name in ("play", "board", "replay"):
        assert mallory_client.get(reverse(f"diceslayer:{name}", args=[solo.pk])).status_code == 404
    face = state_of(solo).players[0].plate[0]
    resp = mallory_client.post(reverse("diceslayer:pick", args=[solo.pk]), {"pick": face})
    assert resp.status_code == 404
    assert not Order.objects.filter(phase__match=solo).exists()


def test_anonymous_is_sent_to_log_in(solo, client):
    resp = client.get(reverse("diceslayer:play", args=[solo.pk]))
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_wild_dice_variant_offers_the_wild_die(alice, alice_client):
    match = services.solo_start(user=alice, variant="solo_wild")
    html = alice_client.get(play_url(match)).content.decode()
    assert "Spend a wild die as" in html and 'name="wild" value="6"' in html
    resp = pick_post(alice_client, match, wild="6")
    assert resp.status_code == 302
    st = state_of(match)
    assert st.players[0].wild == 0 and st.players[0].stock[-1] == 6


def test_game_pages_query_counts(solo, alice, alice_client, django_assert_max_num_queries):
    for _ in range(5):
        state = state_of(solo)
        services.move_play(match=solo, seat=solo.seats.get(), payload=engine.default_orders(state, 0)[0])
    with django_assert_max_num_queries(PLAY_PAGE_MAX_QUERIES):
        assert alice_client.get(play_url(solo)).status_code == 200
    # read back from the HTML cache: the board and the press panel cost no query
    with django_assert_max_num_queries(PLAY_PAGE_KEPT_MAX_QUERIES):
        assert alice_client.get(play_url(solo)).status_code == 200
    with django_assert_max_num_queries(BOARD_MAX_QUERIES):
        assert alice_client.get(reverse("diceslayer:board", args=[solo.pk]) + "?hint=1&patterns=1",
                                headers=HX).status_code == 200
    with django_assert_max_num_queries(REPLAY_MAX_QUERIES):
        assert alice_client.get(reverse("diceslayer:replay", args=[solo.pk])).status_code == 200
    with django_assert_max_num_queries(HOME_MAX_QUERIES):
        assert alice_client.get(reverse("diceslayer:home")).status_code == 200


def test_a_solo_game_sends_no_match_started_mail(alice, django_capture_on_commit_callbacks):
    from django.core import mail

    from games.models import Notification

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match = services.solo_start(user=alice)
    assert not Notification.objects.filter(match=match).exists()
    assert mail.outbox == []


def test_the_new_match_page_links_to_the_dice_slayer_page(alice_client):
    html = alice_client.get(reverse("games:match-create")).content.decode()
    assert f'href="{reverse("diceslayer:home")}"' in html


def test_the_end_of_a_solo_game_sends_no_mail(solo, alice, django_capture_on_commit_callbacks):
    from django.core import mail

    from games.models import Notification

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(solo, {0: alice})
    assert not Notification.objects.filter(match=solo).exists()
    assert mail.outbox == []
