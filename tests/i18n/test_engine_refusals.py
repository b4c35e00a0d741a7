"""Engine refusals and game texts as ``games.rules.Msg``: the engines raise English text that
keeps its message id and parameters, and the app layer (``games.lib.text.say``, the order
services, the ``tr`` filter) says it in the reader's language — plurals and word order from
the catalogue (issue 26)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.exceptions import ApplicationError
from games.lib.text import say
from games.rules import IllegalOrder, Msg, T
from games.services.orders import rules_error_to_application


def test_fill_keeps_the_id_and_adds_parameters():
    from diceslayer.engine import errors as E

    m = E.MSG_FACE_ABSENT_PLATE.fill(face=6)
    assert isinstance(m, Msg) and m.msgid == E.MSG_FACE_ABSENT_PLATE.msgid
    assert str(m) == "There is no 6 on the plate to pick."  # the engine's English
    assert say(m, "ja") == "皿に取れる6はありません。"
    assert say(m, "it") == "Nel piatto non c'è un 6 da prendere."
    assert say(m, "es") == "No hay ningún 6 en el plato para tomar."


def test_dice_slayer_plural_and_list_come_from_the_catalogue():
    from diceslayer.engine import errors as E

    assert say(E.msg_cancel_count(1, 2), "it").startswith("Questa presa toglie 1 dado,")
    assert say(E.msg_cancel_count(3, 2), "it").startswith("Questa presa toglie 3 dadi,")
    assert say(E.msg_cancel_count(3, 2), "es").startswith("Esta toma quita 3 dados,")
    absent = E.MSG_CANCEL_ABSENT.fill(faces=[2, 6])
    assert str(absent) == "Your grace zone does not hold the dice 2, 6 to cancel."
    assert say(absent, "ja") == "あなたの猶予ゾーンには相殺する2、6のダイスがありません。"


def test_dice_slayer_hint_joins_its_clauses_the_readers_way():
    from diceslayer.engine.versus_bot import _joined

    parts = [T("it scores %(points)s points", points=5), T("nothing scores now"),
             T("it passes your whole field to the opponent")]
    assert str(_joined(parts)) == ("it scores 5 points, nothing scores now and it passes "
                                   "your whole field to the opponent")
    assert " e " in say(_joined(parts), "it") and " y " in say(_joined(parts), "es")
    assert "、そして" in say(_joined(parts), "ja")
    assert _joined(parts[:1]) is parts[0]


def test_kill_game_refusal_through_the_service_is_in_the_readers_language():
    from killgame.engine import errors as E

    exc = IllegalOrder(E.MSG_OVER_BUDGET, code="OVER_BUDGET")
    with translation.override("it"):
        app = rules_error_to_application(exc)
    assert isinstance(app, ApplicationError)
    assert app.message == "Non hai abbastanza monete." and app.code == "OVER_BUDGET"
    with translation.override("ja"):
        assert rules_error_to_application(exc).as_dict()["message"] == "コインが足りません。"
    with translation.override("en"):
        assert rules_error_to_application(exc).message == "You do not have enough coins."


@pytest.mark.parametrize("lang,expected", [
    ("es", "Esquivar no se puede usar por sí sola."),
    ("ja", "閃は単独では使えません。"),
    ("it", "Schiva non si può usare da sola."),
])
def test_three_kingdoms_kill_refusal_says_the_card_name_too(lang, expected):
    from sanguosha.engine.data import CARD_TYPES

    m = T("%(card)s cannot be used on its own.", card=CARD_TYPES["jink"][0])
    assert str(m) == "Dodge cannot be used on its own."
    assert say(m, lang) == expected


def test_three_kingdoms_kill_negate_ask_names_the_trick_in_the_readers_language():
    from sanguosha.engine.describe import ask_question

    q = ask_question("negate_window", {"about": "dismantlement", "target": 1}, 0, "en",
                     {1: "demo2"})
    assert str(q) == "Dismantle on demo2: Negate?"
    assert "過河拆橋" in say(q, "ja") and "demo2" in say(q, "ja")
    assert "Dismantle" not in say(q, "ja") and "Quemar puentes" in say(q, "es")


def test_rules_texts_are_in_the_catalogue():
    from games.templatetags.games_tags import tr
    from sanguosha.rules_text import CARD_RULES, SKILL_RULES

    for lang, word in (("es", "Matar"), ("ja", "殺"), ("it", "Uccidi")):
        with translation.override(lang):
            assert word in tr(CARD_RULES["slash"])
            for text in [*CARD_RULES.values(), *SKILL_RULES.values()]:
                assert tr(text) != text, text[:60]


def test_kill_game_now_lines_are_whole_sentences_in_the_readers_language(db):
    from games import selectors
    from games.registry import get_rules
    from killgame.pages import _listed, now_lines
    from tests.killgame.web.conftest import close_phase, kg_match, seat_of, submit
    from tests.test_done_when_i18n import english_words

    with translation.override("ja"):
        assert _listed(["demo1", "demo2"]) == "demo1、demo2"
    match, users = kg_match(3)
    for user, zone in ((users[0], "ponte_ovest"), (users[1], "ponte_ovest"),
                       (users[2], "cave_sud_est")):
        submit(match, user, {"type": "start_zone", "zone": zone})
    close_phase(match)  # the Action phase of turn 1
    match.refresh_from_db()
    engine = get_rules("killgame")
    view = engine.player_view(engine.load(match.state), seat_of(match, users[0]).number)
    names = selectors.seat_names(match)
    english = now_lines(view, names)
    assert any(line.startswith("You can attack with: ") for line in english)
    for lang in ("ja", "it", "es"):
        lines = now_lines(view, names, lang)
        assert len(lines) == len(english) and lines != english
        words = english_words(lang)
        for line in lines:
            for name in names.values():
                line = line.replace(name, " ")
            assert not {w.lower() for w in line.replace(".", " ").split()} & words, line


def test_dice_slayer_scoring_picks_are_whole_sentences():
    from diceslayer.pages import scoring_text

    e = {"face": 4, "from": "own", "pattern": "run", "removes": [2, 3, 4], "points": 9,
         "clears": True}
    with translation.override("en"):
        assert scoring_text(e, solo=True) == ("Pick a 4: run, removes 2-3-4 for +9 (clears the "
                                              "plate).")
    with translation.override("ja"):
        text = scoring_text(e, solo=True)
        assert text.startswith("4を取る：") and "run" not in text and "皿" in text
    from diceslayer.engine.describe import PATTERNS

    with translation.override("it"):
        assert scoring_text({**e, "from": "opponent", "clears": False}, solo=False) == (
            f"Prendi il loro 4: {say(PATTERNS['run'])}, toglie 2-3-4 per +9.")
