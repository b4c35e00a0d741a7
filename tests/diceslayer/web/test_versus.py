"""Versus on the framework: challenge by username, an open game someone joins, the bot as
opponent; one phase per turn with only the mover awaited, the per-turn deadline, the
"your move" email, out-of-turn picks refused, the stated default (or the bot) when time
runs out, a match played to its end, and the generic match page's hooks.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from diceslayer import engine, services
from games.models import Match, Notification, Order, Phase
from games.services.phases import phases_close_due
from tests.diceslayer.web.conftest import open_phase, page_text, pick_post, play_to_end, state_of

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def create(client, **fields):
    data = {"variant": "versus2", "against": "user", "opponent": "", "turn_hours": 24,
            "target_score": 0, **fields}
    return client.post(reverse("diceslayer:versus-new"), data)


def mover_and_waiter(match, users):
    state = state_of(match)
    by_seat = {s.number: s for s in match.seats.select_related("user")}
    mover = by_seat[state.to_move]
    other = by_seat[1 - state.to_move]
    return mover, other, state


@pytest.fixture
def versus(alice, bob):
    return accepted(alice, bob)


def accepted(challenger, opponent, **kw):
    """A challenge, accepted by the challenged player: the match is running."""
    match = services.versus_create(challenger=challenger, opponent=opponent, **kw)
    return services.challenge_accept(match=match, user=opponent)


def test_challenge_by_username_starts_a_private_match_with_a_24h_turn(alice, bob, alice_client):
    resp = create(alice_client, opponent="BOB")
    match = Match.objects.get(game="diceslayer")
    assert resp.status_code == 302 and resp["Location"] == reverse("diceslayer:play", args=[match.pk])
    assert match.status == Match.Status.FORMING and match.is_private  # until bob accepts
    match = services.challenge_accept(match=match, user=bob)
    assert match.status == Match.Status.RUNNING
    assert match.config == {"variant": "versus2", "target_score": 0}
    assert sorted(match.seats.values_list("user__username", flat=True)) == ["alice", "bob"]
    phase = open_phase(match)
    state = state_of(match)
    assert phase.awaited == [state.to_move]  # only the active player is awaited
    assert phase.deadline_at - phase.opens_at == timedelta(hours=24)


def test_the_challenger_sets_the_time_per_turn_and_prototype_1(alice, bob, alice_client):
    create(alice_client, opponent="bob", variant="versus1", turn_hours=4)
    match = services.challenge_accept(match=Match.objects.get(game="diceslayer"), user=bob)
    assert match.config["variant"] == "versus1"
    phase = open_phase(match)
    assert phase.deadline_at - phase.opens_at == timedelta(hours=4)


@pytest.mark.parametrize("fields,message", [
    ({"opponent": "nobody"}, "There is no player called 'nobody'."),
    ({"opponent": "alice"}, "You cannot challenge yourself."),
    ({"opponent": ""}, "Give the username of the player to challenge."),
    ({"opponent": "bob", "turn_hours": 5}, "Select a valid choice"),
    ({"opponent": "bob", "variant": "versus1", "target_score": 50},
     "A target score applies only to prototype 2."),
])
def test_bad_challenges_get_a_message_and_create_nothing(alice, bob, alice_client, fields, message):
    resp = create(alice_client, **fields)
    assert resp.status_code == 400
    assert message in page_text(resp)
    assert not Match.objects.filter(game="diceslayer").exists()


def test_turn_flow_pick_then_wait_then_the_other_is_emailed(
        versus, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    mover, other, state = mover_and_waiter(versus, None)
    from tests.games.views.conftest import client_for

    mover_client, other_client = client_for(mover.user), client_for(other.user)
    page = mover_client.get(reverse("diceslayer:play", args=[versus.pk]))
    assert "Your turn" in page_text(page)
    assert "Waiting for " + mover.user.username in page_text(
        other_client.get(reverse("diceslayer:play", args=[versus.pk])))

    # the waiting player may not move
    face = state.players[other.number].plate[0] if state.players[other.number].plate else \
        state.players[mover.number].plate[0]
    resp = pick_post(other_client, versus, pick_opponent=face)
    assert resp.status_code == 409 and "It is not your turn" in page_text(resp)
    assert not Order.objects.filter(phase__match=versus).exists()

    order = engine.default_orders(state, mover.number)[0]
    from django.core.cache import cache
    cache.clear()  # the other player left the page (no "your move" email while on it)
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends on commit
        resp = pick_post(mover_client, versus, headers=HX,
                         **({"pick_opponent": order["pick"]} if order.get("from") else
                            {"pick": order["pick"]}))
    assert resp.status_code == 200
    assert "Waiting for " + other.user.username in page_text(resp)
    after = state_of(versus)
    assert after.to_move == other.number and after.turn == state.turn + 1
    assert open_phase(versus).awaited == [other.number]
    your_turn = Notification.objects.filter(match=versus, kind="your_turn")
    assert list(your_turn.values_list("recipient__username", flat=True)) == [other.user.username]
    sent = [m for m in mail.outbox if other.user.email in m.to]
    assert sent and f"/m/{versus.pk}/" in sent[0].body
    other_page = page_text(other_client.get(reverse("diceslayer:play", args=[versus.pk])))
    assert "Your turn" in other_page
    # the diary names the other player by username ("You" for oneself)
    assert f"{mover.user.username} picked a {order['pick']}" in other_page
    home = page_text(other_client.get(reverse("diceslayer:home")))
    assert "Your move" in home
    assert "Your move" not in page_text(mover_client.get(reverse("diceslayer:home")))


def test_poll_answers_204_until_the_other_player_moves(versus, django_assert_num_queries):
    mover, other, state = mover_and_waiter(versus, None)
    from tests.games.views.conftest import client_for

    waiting = client_for(other.user)
    versus.refresh_from_db()
    url = reverse("diceslayer:board", args=[versus.pk]) + f"?v={versus.version}"
    assert waiting.get(url, headers=HX).status_code == 204
    with django_assert_num_queries(1):  # answered before the view (games.lib.polls)
        assert waiting.get(url, headers=HX).status_code == 204
    hint = waiting.get(url + "&patterns=1", headers=HX)  # more than a poll: the board
    assert hint.status_code == 200 and 'id="ds-board"' in hint.content.decode()
    services.move_play(match=versus, seat=mover, payload=engine.default_orders(state, mover.number)[0])
    resp = waiting.get(url, headers=HX)
    assert resp.status_code == 200 and "Your turn" in page_text(resp)


def test_when_time_runs_out_the_stated_default_move_is_played(versus):
    mover, other, state = mover_and_waiter(versus, None)
    phase = open_phase(versus)
    expected = engine.default_orders(state, mover.number)
    assert phases_close_due(now=phase.deadline_at + timedelta(seconds=1)) == 1
    order = Order.objects.get(phase=phase)
    assert order.is_default and order.payload == expected[0]
    assert state_of(versus).to_move == other.number
    text = page_text(__import__("tests.games.views.conftest", fromlist=["x"]).client_for(
        mover.user).get(reverse("diceslayer:replay", args=[versus.pk]) + "?step=1"))
    assert "(default move)" in text


def test_with_bots_enabled_the_bot_plays_an_absent_player(alice, bob):
    match = accepted(alice, bob, bots_enabled=True)
    mover, other, state = mover_and_waiter(match, None)
    phase = open_phase(match)
    phases_close_due(now=phase.deadline_at + timedelta(seconds=1))
    order = Order.objects.get(phase=phase)
    assert order.is_default and order.payload == engine.bot_orders(state, mover.number, "")[0]


def test_an_open_game_waits_then_starts_when_someone_joins(alice, bob, alice_client, bob_client):
    resp = create(alice_client, against="open")
    match = Match.objects.get(game="diceslayer")
    assert match.status == Match.Status.FORMING and not match.is_private
    assert "waits for a second player" in page_text(alice_client.get(resp["Location"]))
    home = page_text(bob_client.get(reverse("diceslayer:home")))
    assert "alice vs anyone" in home
    resp = bob_client.post(reverse("diceslayer:versus-join", args=[match.pk]))
    assert resp.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    again = bob_client.post(reverse("diceslayer:versus-join", args=[match.pk]))
    assert again.status_code == 409 and "no longer open" in page_text(again)


def test_playing_the_bot_it_answers_at_once(alice, alice_client):
    create(alice_client, against="bot")
    match = Match.objects.get(game="diceslayer")
    assert match.seats.filter(is_bot=True, user__isnull=True).count() == 1
    state = state_of(match)
    human = match.seats.get(user=alice)
    assert state.to_move == human.number  # if the bot started, it has already moved
    order = engine.default_orders(state, human.number)[0]
    services.move_play(match=match, seat=human, payload=order)
    after = state_of(match)
    assert after.over or (after.to_move == human.number and after.turn == state.turn + 2)


def test_another_users_versus_match_is_refused(versus, mallory_client):
    assert mallory_client.get(reverse("diceslayer:play", args=[versus.pk])).status_code == 404
    assert mallory_client.post(reverse("diceslayer:pick", args=[versus.pk]),
                               {"pick": 1}).status_code == 404


def test_a_match_with_a_low_target_score_ends_with_a_winner(alice, bob, alice_client):
    match = accepted(alice, bob, target_score=10)
    play_to_end(match, {})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    state = state_of(match)
    winner = match.seats.get(number=state.winner).user.username
    text = page_text(alice_client.get(reverse("diceslayer:play", args=[match.pk])))
    assert "Game over" in text
    assert ("You won!" if winner == "alice" else f"{winner} won.") in text
    # the result says why it was decided
    assert any(why in text for why in ("whatever the scores", "higher score won",
                                       "reach the target score wins"))
    assert 'name="pick"' not in alice_client.get(
        reverse("diceslayer:play", args=[match.pk])).content.decode()


def test_generic_match_page_uses_the_dice_board_and_move_radios(versus):
    mover, other, state = mover_and_waiter(versus, None)
    from tests.games.views.conftest import client_for

    client = client_for(mover.user)
    html = client.get(reverse("games:match-detail", args=[versus.pk])).content.decode()
    assert "Open the Dice Slayer board" in html
    order = engine.default_orders(state, mover.number)[0]
    value = ("opponent:" if order.get("from") else "pick:") + str(order["pick"])
    assert f'name="move" value="{value}"' in html
    versus.refresh_from_db()
    resp = client.post(reverse("games:order-submit", args=[versus.pk]),
                       {"move": value, "phase_id": open_phase(versus).pk,
                        "version": versus.version})
    assert resp.status_code == 302
    assert Order.objects.get(phase__match=versus).payload == order
    resp = client.post(reverse("games:order-submit", args=[versus.pk]), {"move": "dance:9"})
    assert resp.status_code in (400, 409)


VERSUS_PAGE_MAX_QUERIES = 11 + 3  # measured 11 after 2 and after 12 turns, + the press panel
                                  # (its settings, a page of messages, the seats to write to)
POLL_UNCHANGED_MAX_QUERIES = 5  # measured 5 (session, user, profile, match, seat): then 204


@pytest.mark.parametrize("turns", [2, 12])
def test_versus_page_queries_do_not_grow_with_turns(alice, bob, turns,
                                                    django_assert_max_num_queries):
    from tests.games.views.conftest import client_for

    match = accepted(alice, bob)
    for _ in range(turns):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            break
        state = state_of(match)
        services.move_play(match=match, seat=match.seats.get(number=state.to_move),
                           payload=engine.default_orders(state, state.to_move)[0])
    client = client_for(alice)
    with django_assert_max_num_queries(VERSUS_PAGE_MAX_QUERIES):
        assert client.get(reverse("diceslayer:play", args=[match.pk])).status_code == 200
    match.refresh_from_db()
    with django_assert_max_num_queries(POLL_UNCHANGED_MAX_QUERIES):
        resp = client.get(reverse("diceslayer:board", args=[match.pk]) + f"?v={match.version}",
                          headers=HX)
    assert resp.status_code == 204


def test_prototype_1_grace_cancels_are_chosen_on_the_board(alice, bob):
    from diceslayer.engine.state import Player, State, Variant
    from tests.diceslayer.web.conftest import set_state
    from tests.games.views.conftest import client_for

    match = accepted(alice, bob, variant="versus1")
    mover, other, _ = mover_and_waiter(match, None)
    me = mover.number
    players = [None, None]
    # stock 2,2 + pick a 2 → set → removes the 1 and the 3s (n = 2) with 3 grace dice
    players[me] = Player(plate=(1, 2, 3, 6), stock=(2, 2), grace=(4, 5, 6))
    players[1 - me] = Player(plate=(5, 5))
    set_state(match, State(variant=Variant.VERSUS1, players=tuple(players), to_move=me,
                           target=100, turn=3))
    client = client_for(mover.user)
    html = client.get(reverse("diceslayer:play", args=[match.pk])).content.decode()
    assert 'name="cancel" value="6"' in html
    resp = pick_post(client, match, pick="2", cancel=["6"])
    assert resp.status_code == 422 and "must list exactly 2" in page_text(resp)
    resp = pick_post(client, match, pick="2", cancel=["5", "6"])
    assert resp.status_code == 302
    assert Order.objects.get(phase__match=match).payload == {"pick": 2, "cancel": [5, 6]}
    assert state_of(match).players[me].grace == (4,)


def test_paused_and_director_ended_games_say_so(versus):
    from games.services.matches import match_end, match_pause, match_resume
    from tests.games.views.conftest import client_for, make_user

    boss = make_user("boss", is_staff=True)
    mover, other, state = mover_and_waiter(versus, None)
    client = client_for(mover.user)
    match_pause(match=versus, actor=boss)
    text = page_text(client.get(reverse("diceslayer:play", args=[versus.pk])))
    assert "The director has paused this game" in text and 'name="pick"' not in text
    order = engine.default_orders(state, mover.number)[0]
    resp = pick_post(client, versus, **({"pick_opponent": order["pick"]} if order.get("from")
                                         else {"pick": order["pick"]}))
    assert resp.status_code == 409 and "The match is paused." in page_text(resp)
    match_resume(match=versus, actor=boss)
    match_end(match=versus, actor=boss, reason="testing")
    text = page_text(client.get(reverse("diceslayer:play", args=[versus.pk])))
    assert "Ended by the director: testing" in text
    assert "Show scoring picks" not in text and "to move" not in text


def test_each_player_reads_back_only_their_own_kept_board(versus):
    """The board is kept in the shared HTML cache (diceslayer.pages.kept_board): read back,
    each player gets their own — "Your turn" and the bot's hint for the mover only, the
    "You" panel on their own side — never the other seat's entry, and a move (a new
    version) shows at once."""
    from games.lib import htmlcache
    from tests.games.views.conftest import client_for

    htmlcache.cache.clear()
    mover, other, state = mover_and_waiter(versus, None)
    clients = {"mover": client_for(mover.user), "other": client_for(other.user)}
    url = reverse("diceslayer:play", args=[versus.pk])
    pages = {who: [c.get(url, {"hint": 1}).content.decode() for _ in range(2)]
             for who, c in clients.items()}
    for who, (first, again) in pages.items():
        assert page_text(type("R", (), {"content": first.encode()})()) == page_text(
            type("R", (), {"content": again.encode()})())
        text = page_text(type("R", (), {"content": again.encode()})())
        if who == "mover":
            assert "Your turn" in text and 'id="ds-hint-box"' in again
        else:
            assert "Waiting for " + mover.user.username in text
            assert "Your turn" not in text and 'id="ds-hint-box"' not in again
    assert len([k for k in htmlcache.cache._cache if ":ds-board:" in k]) == 2
    order = engine.default_orders(state, mover.number)[0]
    resp = pick_post(clients["mover"], versus,
                     **({"pick_opponent": order["pick"]} if order.get("from") else
                        {"pick": order["pick"]}))
    assert resp.status_code in (200, 302)
    assert "Your turn" in page_text(clients["other"].get(url))
    assert "Your turn" not in page_text(clients["mover"].get(url))
