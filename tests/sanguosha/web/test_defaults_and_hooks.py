"""What happens to the absent (the engine's default, or the bot when the table enables
it), the "your move" email, answering through the generic match page (registry hooks),
creating a table from the generic create page (the schedule's duration classes), the
Negate window that closes at the first Negate, and the catalogue admin.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Match, Notification, Order
from games.services.phases import phase_close
from sanguosha import engine
from sanguosha.services import catalogue_sync
from tests.sanguosha.web.conftest import (client_for, make_player, open_phase, page_text,
                                          seat_client, table_at)

pytestmark = pytest.mark.django_db


def _state(match):
    match.refresh_from_db()
    return engine.load(match.state).raw


def test_absent_player_gets_the_stated_default_at_the_deadline():
    match = table_at("respond")
    st = _state(match)
    seat = st["ask"]["awaited"][0]
    no = st["ask"]["no"]
    phase = open_phase(match)
    assert phase_close(phase_id=phase.pk, now=phase.deadline_at, require_ready=True)
    order = Order.objects.get(phase=phase)
    assert order.is_default and order.payload == {"decline": True}
    assert _state(match)["ask"] is None or _state(match)["ask"]["no"] != no
    assert seat is not None


def test_with_bots_enabled_the_bot_answers_for_the_absent():
    match = table_at("play", bots=True)
    st = _state(match)
    seat = st["ask"]["awaited"][0]
    page = page_text(seat_client(match, seat).get(reverse("sanguosha:table", args=[match.pk])))
    assert "the bot answers for you" in page
    phase = open_phase(match)
    expected = engine.bot_orders(engine.load(match.state), seat, phase.seed)[0]
    phase_close(phase_id=phase.pk)
    order = Order.objects.get(phase=phase)
    assert order.is_default and order.payload == dict(expected)


def test_the_awaited_seat_gets_a_your_move_email_and_the_others_do_not():
    match = table_at("play", need="kill")
    st = _state(match)
    seat = st["ask"]["awaited"][0]
    kill = next(a for a in st["ask"]["options"][str(seat)]["actions"]
                if a.get("as") == "slash" and "use" in a)
    c = seat_client(match, seat)
    c.post(reverse("sanguosha:answer", args=[match.pk]), {
        "pick": json.dumps({"use": kill["use"], "as": "slash", "_t": 1}),
        "targets": str(kill["targets"][0]), "phase_id": open_phase(match).pk})
    Notification.objects.all().delete()
    phase_close(phase_id=open_phase(match).pk)
    new = open_phase(match)
    awaited = set(new.awaited)
    rows = Notification.objects.filter(phase=new)
    assert rows.exists()
    from games import emails
    for n in rows:
        number = match.seats.get(user=n.recipient).number
        if number in awaited and len(awaited) < 5:
            assert n.kind == "your_turn"
            assert "Your move" in emails.build(n).subject
        else:
            assert n.kind == "new_phase"


def test_answer_through_the_generic_match_page_uses_the_registry_hooks():
    match = table_at("play")
    seat = _state(match)["ask"]["awaited"][0]
    c = seat_client(match, seat)
    resp = c.get(reverse("games:match-detail", args=[match.pk]))
    html = resp.content.decode()
    assert "Open the table" in html and 'name="pick"' in html
    resp = c.post(reverse("games:order-submit", args=[match.pk]), {
        "pick": json.dumps({"end": True}), "phase_id": open_phase(match).pk,
        "ask": _state(match)["ask"]["no"]})
    assert resp.status_code == 302
    assert Order.objects.get(phase=open_phase(match)).payload == {"end": True,
                                                                  "ask": _state(match)["ask"]["no"]}
    resp = c.post(reverse("games:order-submit", args=[match.pk]), {"pick": "nonsense"})
    assert resp.status_code in (400, 409)


def test_generic_create_page_makes_a_schedule_with_the_duration_classes():
    c = client_for(make_player("generic-host"))
    resp = c.get(reverse("games:match-create-game", args=["sanguosha"]))
    assert resp.status_code == 200
    form = {"name": "Generic table", "min_players": 4, "max_players": 10,
            "timezone": "Europe/Rome", "cfg_identity_variant": "printed",
            "cfg_deck": "standard_ex", "cfg_weapon_abilities": "all", "cfg_rescue_mode": "pledge",
            "cfg_negate_privacy": "holders", "cfg_lord_extra_choices": 2,
            "cfg_durations": json.dumps({"setup": 24, "play": 12, "response": 2, "window": 1}),
            "cfg_roster": "null"}
    resp = c.post(reverse("games:match-create-game", args=["sanguosha"]), form)
    assert resp.status_code == 302, page_text(resp)
    match = Match.objects.get(name="Generic table")
    assert match.schedule["durations"] == {"setup": 86400, "play": 43200, "response": 7200,
                                           "window": 3600}


def test_negate_window_closes_at_the_first_negate_without_waiting_for_the_others():
    match = table_at("negate_window")
    st = _state(match)
    ask = st["ask"]
    holder = ask["awaited"][0]
    negate = ask["options"][str(holder)]["negates"][0]
    phase = open_phase(match)
    from django.test.utils import CaptureQueriesContext  # noqa: F401
    resp = seat_client(match, holder).post(reverse("sanguosha:answer", args=[match.pk]), {
        "pick": json.dumps({"negate": negate}), "phase_id": phase.pk, "ask": ask["no"]})
    assert resp.status_code == 302
    phase.refresh_from_db()
    assert phase.awaited == [holder]  # the window needs nobody else now
    from games.services.seats import phase_all_checked_in
    assert phase_all_checked_in(phase)
    assert phase_close(phase_id=phase.pk, require_ready=True)


def test_catalogue_admin_lists_and_edits_cards_and_characters():
    catalogue_sync()
    staff = client_for(make_player("admin-sgs", is_staff=True, is_superuser=True))
    for name in ("cardtype", "card", "character", "skill"):
        resp = staff.get(reverse(f"admin:sanguosha_{name}_changelist"))
        assert resp.status_code == 200, name
    from sanguosha.models import Character
    resp = staff.get(reverse("admin:sanguosha_character_change",
                             args=[Character.objects.get(slug="zhugeliang").pk]))
    assert resp.status_code == 200 and "Stargazing" in resp.content.decode()


def test_an_answer_can_be_taken_back_and_replaced_until_the_ask_closes():
    match = table_at("rescue", need="open_after_pass")
    st = _state(match)
    ask = st["ask"]
    seat = next(s for s in ask["awaited"] if ask["options"][str(s)]["cards"])
    peach = ask["options"][str(seat)]["cards"][0]
    c = seat_client(match, seat)
    url = reverse("sanguosha:table", args=[match.pk])
    phase = open_phase(match)
    c.post(reverse("sanguosha:answer", args=[match.pk]), {
        "pick": json.dumps({"pass": True}), "phase_id": phase.pk, "ask": ask["no"]})
    assert open_phase(match) is not None and open_phase(match).pk == phase.pk
    text = page_text(c.get(url))
    assert "Your answer is in" in text and "Change my answer" in text
    resp = c.post(reverse("sanguosha:answer-withdraw", args=[match.pk]), {"phase_id": phase.pk})
    assert resp.status_code == 302
    text = page_text(c.get(url))
    assert "You took your answer back" in text and "as Peach" in text
    resp = c.post(reverse("sanguosha:answer", args=[match.pk]), {
        "pick": json.dumps({"peaches": [peach]}), "phase_id": phase.pk, "ask": ask["no"]})
    assert resp.status_code == 302
    assert _state(match)["answers"][str(seat)] == {"peaches": [peach], "ask": ask["no"]}
    # withdrawing twice, or in a stale phase, is refused with a message
    resp = c.post(reverse("sanguosha:answer-withdraw", args=[match.pk]), {"phase_id": "999999"})
    assert resp.status_code == 409 and "changed since you loaded" in page_text(resp)
