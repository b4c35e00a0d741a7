"""Issue 28's risky patterns: reset links from the request's Host, TOTP for staff only, the
play token posting private messages, invisible characters in names and press, passwords
of 8, every staff view of hidden information unrecorded, compose out of step."""

from __future__ import annotations

import json
import logging
import re
import time
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import ApiToken
from config.textclean import clean_name, clean_text
from tests.games.views.conftest import PASSWORD, client_for, make_user, new_match

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def _code(device: TOTPDevice) -> str:
    return f"{TOTP(device.bin_key, device.step, device.t0, device.digits).token():06d}"


# --- reset and confirmation links from SITE_URL ------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "testserver", "127.0.0.1"])
def test_the_reset_link_and_subject_name_site_url_whatever_the_host(settings, player, host):
    settings.ALLOWED_HOSTS = ["evil.example", "testserver", "127.0.0.1"]
    settings.SITE_URL = "https://play.example.org"
    resp = Client().post(reverse("accounts:password_reset"), {"email": player.email},
                         HTTP_HOST=host)
    assert resp.status_code == 302
    message = mail.outbox[-1]
    assert "https://play.example.org/accounts/password/reset/" in message.body
    assert host not in message.body.replace("play.example.org", "")
    assert "evil" not in message.subject and "evil" not in message.body


def test_the_confirmation_link_names_site_url(settings, db):
    settings.SITE_URL = "https://play.example.org"
    settings.ALLOWED_HOSTS = ["evil.example"]
    Client().post(reverse("accounts:signup"),
                  {"username": "newbie", "email": "newbie@example.com",
                   "password1": "a long enough passphrase 9", "password2":
                   "a long enough passphrase 9"}, HTTP_HOST="evil.example")
    assert "https://play.example.org/accounts/verify/" in mail.outbox[-1].body
    assert "evil.example" not in mail.outbox[-1].body


# --- TOTP offered to every player -----------------------------------------------------------

def test_a_player_turns_two_step_login_on_and_is_asked_for_it_afterwards(player):
    laptop, phone = client_for(player), client_for(player)
    page = laptop.get(reverse("accounts:two-step")).content.decode()
    assert 'id="two-step-off"' in page and 'id="two-step-setup"' in page
    enrol = laptop.get(reverse("accounts:otp") + "?next=/accounts/two-step/")
    assert "<svg" in enrol.content.decode()
    device = TOTPDevice.objects.get(user=player)
    done = laptop.post(reverse("accounts:otp"), {"code": _code(device),
                                                  "next": "/accounts/two-step/"})
    assert done.status_code == 302 and done["Location"] == "/accounts/two-step/"
    assert 'id="two-step-on"' in laptop.get(reverse("accounts:two-step")).content.decode()
    # the other session logged in without it: it is logged out
    assert phone.get(reverse("accounts:profile")).status_code == 302
    # a new login with the password alone reaches nothing but the code page
    c = Client()
    c.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    resp = c.get(reverse("accounts:profile"))
    assert resp.status_code == 302 and resp["Location"].startswith("/accounts/otp/")
    assert c.get("/api/matches/").json()["error"]["code"] == "OTP_REQUIRED"
    device.refresh_from_db()
    time.sleep(0)  # (a code may be used once per step: the next one is the same step)
    device.last_t = -1
    device.save()
    assert c.post(reverse("accounts:otp"), {"code": _code(device), "next": "/"}
                  ).status_code == 302
    assert c.get(reverse("accounts:profile")).status_code == 200


def test_a_player_turns_it_off_with_a_code(player):
    c = client_for(player)
    device = TOTPDevice.objects.create(user=player, name="phone", confirmed=True)
    assert c.post(reverse("accounts:two-step"), {"code": "000000" if _code(device) != "000000"
                                                  else "111111"}).status_code == 400
    assert TOTPDevice.objects.filter(user=player).exists()
    device.refresh_from_db()
    device.throttling_failure_count, device.throttling_failure_timestamp = 0, None
    device.save()
    assert c.post(reverse("accounts:two-step"), {"code": _code(device)}).status_code == 302
    assert not TOTPDevice.objects.filter(user=player).exists()


def test_directors_keep_it_when_it_is_required(settings, staff):
    settings.OTP_REQUIRED_FOR_STAFF = True
    c = client_for(staff)
    device = TOTPDevice.objects.create(user=staff, name="phone", confirmed=True)
    c.post(reverse("accounts:otp"), {"code": _code(device), "next": "/"})
    device.refresh_from_db()
    device.last_t = -1
    device.save()
    assert c.post(reverse("accounts:two-step"), {"code": _code(device)}).status_code == 400
    assert TOTPDevice.objects.filter(user=staff).exists()


# --- a press scope apart from play --------------------------------------------------------

def test_a_play_token_cannot_post_messages_and_a_press_token_cannot_order(player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)
    play = ApiToken.objects.create(user=player, scope=ApiToken.Scope.PLAY)
    press = ApiToken.objects.create(user=player, scope=ApiToken.Scope.PRESS)
    both = ApiToken.objects.create(user=player, scope=ApiToken.Scope.ALL)
    messages = reverse("press:api-messages", args=[match.pk])
    orders = reverse("games:api-order-submit", args=[match.pk])
    c = Client()

    def post(url, token, body):
        return c.post(url, json.dumps(body), content_type="application/json",
                      HTTP_AUTHORIZATION=f"Token {token.key}")

    refused = post(messages, play, {"to": [2], "text": "psst"})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "TOKEN_SCOPE"
    assert refused.json()["error"]["details"]["needs"] == "press"
    assert post(messages, press, {"to": "all", "text": "hello"}).status_code == 201
    assert post(orders, press, {"order": {"guess": 3}}).json()["error"]["code"] == "TOKEN_SCOPE"
    assert post(orders, play, {"order": {"guess": 3}}).status_code == 200
    assert post(messages, both, {"to": "all", "text": "both"}).status_code == 201
    for token in (play, press):  # every scope reads
        assert c.get(messages, HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200


def test_the_profile_offers_the_press_scope(player):
    page = client_for(player).get(reverse("accounts:profile")).content.decode()
    assert 'value="press"' in page and 'value="all"' in page


# --- invisible characters out of names and press ------------------------------------------

def test_bidi_and_zero_width_characters_are_stripped():
    assert clean_name("ad\u200bmin\u202e") == "admin"
    assert clean_name("\u2066evil\u2069 \ufeffname\u00ad") == "evil name"
    assert clean_text("gnp\u202e.exe\u200d and\u200b this\nline") == "gnp.exe and this\nline"
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    assert clean_text(f"hi {family}") == f"hi {family}"  # the emoji's joiner stays


def test_press_and_names_are_stored_without_them(player, player2):
    from games.services.matches import match_create
    from press.models import Message
    from press.services import message_post

    match = new_match(creator=player, players=[player, player2], start=True)
    message_post(match=match, user=player, to="all", text="pay\u202egnp.exe\u200b")
    assert Message.objects.get(match=match).text == "paygnp.exe"
    made = match_create(game="guess", name="\u202eTest\u200b match", created_by=player)
    assert made.name == "Test match"
    c = client_for(player)
    c.post(reverse("accounts:api-token-create"), {"name": "bot\u202e\u200b", "scope": "read",
                                                  "days": 30})
    assert ApiToken.objects.get(user=player).name == "bot"
    resp = Client().post(reverse("accounts:signup"), {
        "username": "zer\u200bo", "email": "zero@example.com",
        "password1": "a long enough passphrase 9", "password2": "a long enough passphrase 9"})
    assert resp.status_code == 302
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.filter(username="zero").exists()


# --- passwords --------------------------------------------------------------------------------

@pytest.mark.parametrize("password,ok", [
    ("short-pass1", False),              # 11 characters
    ("123456789012", False),             # all digits, and on the list
    ("passwordpassword", False),         # a breach list's favourite
    ("KillGameKillGame2024!", False),    # this site's words, decorated
    ("Phasesphases99", False),
    ("a long enough passphrase 9", True),
    ("tramonto sul lago 42", True),
])
def test_new_passwords_need_12_characters_and_stay_off_the_lists(db, password, ok):
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    user = make_user("alice")
    if ok:
        validate_password(password, user)
    else:
        with pytest.raises(ValidationError):
            validate_password(password, user)


def test_the_operators_list_holds_passwords_or_sha1_digests(settings, tmp_path, db):
    import gzip
    import hashlib

    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    blocked = tmp_path / "corpus.txt.gz"
    digest = hashlib.sha1(b"our club secret 2026").hexdigest().upper()
    blocked.write_bytes(gzip.compress(f"{digest}:31\nmarmellata di fichi\n".encode()))
    settings.PASSWORD_BLOCKLIST_FILE = str(blocked)
    for password in ("our club secret 2026", "Marmellata di fichi", "marmellata di fichi!!"):
        with pytest.raises(ValidationError):
            validate_password(password)
    validate_password("marmellata di more 77")


def test_signup_refuses_an_8_character_password(db):
    resp = Client().post(reverse("accounts:signup"), {
        "username": "newbie", "email": "n@example.com", "password1": "Tr0ub4d!",
        "password2": "Tr0ub4d!"})
    assert resp.status_code == 400 and "at least 12 characters" in resp.content.decode()


# --- staff views of hidden information: an audit line each -------------------------------

def test_each_staff_view_of_hidden_information_is_an_audit_line(staff, player, player2,
                                                                 caplog):
    match = new_match(creator=player, players=[player, player2], start=True)
    c = client_for(staff)
    caplog.set_level(logging.INFO, logger="pbw.audit")
    urls = {"page": f"/m/{match.pk}/", "api": f"/api/matches/{match.pk}/",
            "admin": f"/admin/games/match/{match.pk}/change/",
            "press": f"/api/matches/{match.pk}/messages/"}
    for what, url in urls.items():
        caplog.clear()
        assert c.get(url).status_code == 200, url
        lines = [r.getMessage() for r in caplog.records if r.name == "pbw.audit"]
        assert any(f"user={staff.pk}:director match={match.pk}" in line for line in lines), \
            (what, lines)
    caplog.clear()
    client_for(player).get(f"/m/{match.pk}/")  # a player's own view is no audit matter
    assert not [r for r in caplog.records if r.name == "pbw.audit"]


def test_one_line_per_page_load(staff, player, player2, caplog):
    match = new_match(creator=player, players=[player, player2], start=True)
    caplog.set_level(logging.INFO, logger="pbw.audit")
    client_for(staff).get(f"/m/{match.pk}/")
    pages = [r for r in caplog.records if r.name == "pbw.audit" and "what=page" in r.getMessage()]
    assert len(pages) == 1


# --- compose in step with the settings -------------------------------------------------------

def test_compose_puts_a_tls_proxy_in_front_and_splits_redis():
    compose = (ROOT / "docker-compose.yml").read_text()
    services: dict[str, str] = {}
    name = None
    for line in compose.splitlines():  # the top-level services' blocks, by indentation
        head = re.match(r"^  ([a-z-]+):$", line)
        if head:
            name = head.group(1)
            services[name] = ""
        elif name and (line.startswith("    ") or not line.strip()):
            services[name] += line + "\n"
        else:
            name = None
    assert "caddy" in services["proxy"] and '"443:443"' in services["proxy"]
    assert "ports:" not in services["web"], "gunicorn must not be published"
    proxy_ip = re.search(r"ipv4_address: ([\d.]+)", services["proxy"]).group(1)
    assert f"TRUSTED_PROXIES: {proxy_ip}" in compose
    assert re.search(r"subnet: 172\.30\.0\.0/24", compose) and proxy_ip.startswith("172.30.0.")
    assert '"--maxmemory-policy", "noeviction"' in services["redis"]
    assert '"--maxmemory-policy", "allkeys-lru"' in services["cache"]
    assert "--maxmemory" in services["cache"] and "--maxmemory" in services["redis"]
    assert "CACHE_REDIS_URL: redis://cache:6379/0" in compose
    assert "REDIS_URL: redis://redis:6379/0" in compose
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "reverse_proxy web:8000" in caddyfile and "{$SITE_DOMAIN}" in caddyfile
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile" in services["proxy"]
