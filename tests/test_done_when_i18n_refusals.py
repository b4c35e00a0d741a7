"""Issue 26, refusals: on the demo data of ``make run`` (``seed_demo``), a seated player who
reads Japanese posts invalid input to each game — Kill Game orders of the wrong phase or
turn, a cart the rules refuse; Dice Slayer moves that do not exist or are not in this
variant; Three Kingdoms Kill answers that are not offered, out of turn or not legal in the
Play phase — through the pages and the JSON API. Every refusal is a 4xx whose message (the
page around it too) holds no English word of the project's catalogue ("English" as in
tests/test_done_when_i18n.py); the API keeps its stable machine ``code``."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.urls import reverse

from games import selectors
from games.models import Match
from tests.test_done_when_i18n import _reader, _tkk_to_play_ask, english_in, english_words

pytestmark = pytest.mark.django_db
LANG = "ja"


@pytest.fixture
def demo(settings):
    from games.management.commands.run import seed_demo

    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    for alias in settings.CACHES:
        caches[alias].clear()
    names = set(get_user_model().objects.values_list("username", flat=True))
    names |= set(Match.objects.values_list("name", flat=True))
    return english_words(LANG), names


def _phase_id(match: Match) -> str:
    phase = selectors.current_phase(match)
    return str(phase.pk) if phase else ""


def _refused(resp, vocabulary, names, said: str | None = None) -> list[str]:
    """The response is a refusal (4xx) in Japanese: ``said`` shows, no English word does."""
    body = resp.content.decode()
    assert 400 <= resp.status_code < 500, (resp.status_code, body[:300])
    if said is not None:
        assert said in body, (said, body[:2000])
    return english_in(body, vocabulary, names)


def _api(client, match: Match, order: dict, vocabulary, names) -> tuple[str, list[str]]:
    resp = client.post(reverse("games:api-order-submit", args=[match.pk]),
                       json.dumps({"order": order}), content_type="application/json")
    assert 400 <= resp.status_code < 500, resp.content
    err = resp.json()["error"]
    assert err["code"] and err["code"].isupper()  # the stable machine code stays
    return err["code"], english_in(f"<p>{err['message']}</p>", vocabulary, names)


def test_kill_game_refusals_read_in_japanese(demo):
    vocabulary, names = demo
    match = Match.objects.get(game="killgame")
    c = _reader("demo1", LANG)
    url = reverse("killgame:order", args=[match.pk])
    pid = _phase_id(match)
    bad = []
    for post, said in (
            ({"kind": "attack", "attack_weapon": "fists", "attack_targets": "p2"},
             "この命令はもう一方のフェーズのものです。"),                 # WRONG_PHASE
            ({"kind": "move", "move_to": "ingresso"},
             "この命令は2ターン目から出せます。"),                       # NOT_ALLOWED_THIS_TURN
            ({"kind": "cart", "cart_sniper_rifle": "1", "cart_machine_gun": "1"},
             "カートに入れられるのは銃1つ"),                             # SLOT_OCCUPIED
            ({"kind": "cart", "cart_grenade": "x"}, "手榴弾の数量は整数で入力してください。"),
            ({"kind": "start_zone"}, "ゾーンを選んでください。"),
            ({"kind": "bogus"}, "出したい命令のボタンを押してください。")):
        bad += _refused(c.post(url, {**post, "phase_id": pid}), vocabulary, names, said)
    code, english = _api(c, match, {"type": "attack", "weapon": "fists", "targets": ["p2"]},
                         vocabulary, names)
    assert code == "WRONG_PHASE"
    bad += english
    code, english = _api(c, match, {"type": "shout", "zzz": 11}, vocabulary, names)
    assert code == "MALFORMED"
    bad += english
    assert not bad, "\n".join(dict.fromkeys(bad))


def test_dice_slayer_refusals_read_in_japanese(demo):
    vocabulary, names = demo
    match = Match.objects.get(game="diceslayer")
    c = _reader("demo1", LANG)
    url = reverse("diceslayer:pick", args=[match.pk])
    pid = _phase_id(match)
    bad = []
    for post, said in (({"pick": "9"}, "ダイスの目は1から6の整数です"),
                       ({"bomb": "2"}, "ボムは対戦（プロトタイプ2）にしかありません。"),
                       ({"wild": "3"}, "ワイルドダイスは"),
                       ({"pick_opponent": "1"}, "ソロには取れる相手の場がありません。")):
        for hx in ({}, {"HTTP_HX_REQUEST": "true"}):
            bad += _refused(c.post(url, {**post, "phase_id": pid}, **hx), vocabulary, names, said)
    from diceslayer import engine

    plate = set(engine.load(match.state).players[0].plate)
    absent = next(f for f in range(1, 7) if f not in plate)
    bad += _refused(c.post(url, {"pick": str(absent), "phase_id": pid}), vocabulary, names,
                    f"皿に取れる{absent}はありません。")
    bad += _refused(c.post(url, {"pick": str(min(plate)), "cancel": "4", "phase_id": pid}),
                    vocabulary, names, "猶予ゾーンは対戦（プロトタイプ1）にしかありません。")
    code, english = _api(c, match, {"pick": 4, "bomb": 4}, vocabulary, names)
    bad += english
    code, english = _api(c, match, {"bomb": 4}, vocabulary, names)
    assert code == "NOT_IN_VARIANT"
    bad += english
    assert not bad, "\n".join(dict.fromkeys(bad))


def test_three_kingdoms_kill_refusals_read_in_japanese(demo):
    from sanguosha import engine

    vocabulary, names = demo
    match = Match.objects.get(game="sanguosha")
    url = reverse("sanguosha:answer", args=[match.pk])
    bad = []
    # the lord's character choice: a character not offered
    state = engine.load(match.state)
    ask = state.raw["ask"]
    lord = match.seats.get(number=ask["awaited"][0]).user.username
    c = _reader(lord, LANG)
    bad += _refused(c.post(url, {"phase_id": _phase_id(match), "ask": ask["no"],
                                 "pick": json.dumps({"character": "nobody"})}),
                    vocabulary, names, "提示された武将から1人選んでください。")
    # the lord's Play phase: every hand card on the lord, then out of turn, then malformed
    c = _reader(_tkk_to_play_ask(match, LANG), LANG)
    match.refresh_from_db()
    state = engine.load(match.state)
    ask = state.raw["ask"]
    me = ask["awaited"][0]
    pid = _phase_id(match)
    for card in state.raw["seats"][me]["hand"]:
        for pick in ({"use": card, "targets": [me]}, {"use": card, "targets": [0, 1, 2, 3]}):
            resp = c.post(url, {"phase_id": pid, "ask": ask["no"], "pick": json.dumps(pick)})
            if resp.status_code < 400:  # a legal play (a Peach on a wounded lord…): done
                continue
            bad += _refused(resp, vocabulary, names)
    match.refresh_from_db()
    state = engine.load(match.state)
    ask = state.raw["ask"]
    other = next(s for s in match.seats.select_related("user")
                 if s.number not in ask["awaited"])
    c2 = _reader(other.user.username, LANG)
    bad += _refused(c2.post(url, {"phase_id": _phase_id(match), "ask": ask["no"],
                                  "pick": json.dumps({"end": True})}), vocabulary, names)
    awaited = match.seats.get(number=ask["awaited"][0]).user.username
    c = _reader(awaited, LANG)
    bad += _refused(c.post(url, {"phase_id": _phase_id(match), "ask": ask["no"],
                                 "pick": json.dumps({"use": 9999})}), vocabulary, names,
                    "カード9999はありません。")
    code, english = _api(c, match, {"use": 9999}, vocabulary, names)
    bad += english
    assert not bad, "\n".join(dict.fromkeys(bad))
