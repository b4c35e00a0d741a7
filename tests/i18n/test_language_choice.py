"""Which language a page speaks: the profile's, else the browser's Accept-Language, else the
site default; visitors switch with the footer form (Django's set_language)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from tests.games.views.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def _lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def test_the_four_languages_are_offered():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "it", "ja", "es"]


@pytest.mark.parametrize("header,expected", [("it", "it"), ("ja", "ja"), ("es-ES,es;q=0.9", "es"),
                                             ("fr", "en"), ("", "en")])
def test_a_visitor_gets_the_browsers_language_else_the_default(header, expected):
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get("/")
    assert response.status_code == 200
    assert _lang(response) == expected


def test_the_profile_language_wins_over_the_browser():
    user = make_user("yuki")
    user.profile.language = "ja"
    user.profile.save()
    client = client_for(user)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="it")
    assert _lang(response) == "ja"


def test_a_visitor_switches_language_in_the_footer():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'name="language"' in page
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert _lang(client.get("/")) == "es"


def test_a_bad_language_changes_nothing():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert _lang(client.get("/")) == "en"


def test_the_profile_form_offers_every_language():
    from accounts.models import Profile

    # "" first: none chosen, the pages follow the browser (tests/accounts/test_browser_language.py)
    assert [c for c, _ in Profile._meta.get_field("language").choices] == ["", "en", "it", "ja",
                                                                            "es"]


@pytest.mark.parametrize("header,words", [
    ("it", ["Gioca a fasi con scadenza", "Accedi", "Registrati", "Vai al contenuto"]),
    ("ja", ["時間制のフェーズで遊ぶゲーム", "ログイン", "新規登録", "本文へ移動"]),
    ("es", ["Juega por fases con plazo", "Entrar", "Registrarse", "Saltar al contenido"]),
])
def test_the_home_page_speaks_the_browsers_language(header, words):
    page = Client(HTTP_ACCEPT_LANGUAGE=header).get("/").content.decode()
    for word in words:
        assert word in page, (header, word)
    assert "Play games in timed phases" not in page


def test_an_email_is_written_in_its_readers_language():
    from games import emails
    from games.models import Notification

    reader = make_user("hanako")
    reader.profile.language = "ja"
    reader.profile.save()
    other = make_user("pablo")
    other.profile.language = "es"
    other.profile.save()
    payload = {"subject": "s", "message": "m", "admin_url": "/admin/"}
    ja = emails.build(Notification.objects.create(recipient=reader, kind="director",
                                                  payload=payload))
    es = emails.build(Notification.objects.create(recipient=other, kind="director",
                                                  payload=payload))
    assert "管理画面で開く" in ja.body and "ワンクリックでこれらのメールを停止" in ja.body
    assert "管理画面で開く" in ja.alternatives[0][0]
    assert "Ábrelo en la administración" in es.body
    assert "Open it in the admin" not in ja.body + es.body
