"""The permission matrix: every URL of the lobby, match pages, actions, API and accounts,
for each persona — anonymous, stranger (logged in, no seat), player (seated), staff
(the director, no seat). A refusal is a redirect to the login page, a 4xx, never a 500,
and a refused action changes nothing (the match version stays put).
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import CheckIn, Match
from tests.games.views.conftest import client_for, new_match, open_phase, seat_of

pytestmark = pytest.mark.django_db

ROLES = ("anon", "stranger", "player", "staff")
LOGIN = "LOGIN"  # a redirect to the login page


@pytest.fixture
def people(player, player2, stranger, staff):
    return {"anon": None, "stranger": stranger, "player": player, "staff": staff,
            "player2": player2}


def _check(resp, expected):
    if expected == LOGIN:
        assert resp.status_code == 302, resp.status_code
        assert resp["Location"].startswith(reverse("accounts:login"))
    else:
        assert resp.status_code == expected, (resp.status_code, resp.content[:300])


# GET pages: (name, match kind, {role: status})
GET_PAGES = [
    ("games:lobby", None, {"anon": 200, "stranger": 200, "player": 200, "staff": 200}),
    ("games:match-create", None, {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("games:match-detail", "public", {"anon": 200, "stranger": 200, "player": 200, "staff": 200}),
    ("games:match-detail", "private", {"anon": LOGIN, "stranger": 404, "player": 200, "staff": 200}),
    ("games:match-poll", "public", {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("games:match-poll", "private", {"anon": LOGIN, "stranger": 404, "player": 200, "staff": 200}),
    # no ?turn=: a clear 400 for whoever may see the match
    ("games:match-diary", "public", {"anon": LOGIN, "stranger": 400, "player": 400, "staff": 400}),
    ("games:match-diary", "private", {"anon": LOGIN, "stranger": 404, "player": 400, "staff": 400}),
    ("accounts:profile", None, {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("accounts:sessions", None, {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("accounts:two-step", None, {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("games:my-games", None, {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("accounts:signup", None, {"anon": 200, "stranger": 302, "player": 302, "staff": 302}),
    ("accounts:login", None, {"anon": 200, "stranger": 302, "player": 302, "staff": 302}),
    ("accounts:password_reset", None, {"anon": 200, "stranger": 200, "player": 200, "staff": 200}),
]


@pytest.mark.parametrize("name,kind,expected", GET_PAGES,
                         ids=[f"{n}-{k}" for n, k, _ in GET_PAGES])
@pytest.mark.parametrize("role", ROLES)
def test_get_pages(role, name, kind, expected, people, player, player2):
    match = None
    if kind:
        match = new_match(creator=player, players=[player, player2], start=True,
                          private=kind == "private")
    url = reverse(name, args=[match.pk] if match else [])
    _check(client_for(people[role]).get(url), expected[role])


@pytest.mark.parametrize("role", ROLES)
def test_match_create_form_page(role, people):
    url = reverse("games:match-create-game", args=["guess"])
    _check(client_for(people[role]).get(url), LOGIN if role == "anon" else 200)


@pytest.mark.parametrize("role", ROLES)
def test_invite_page(role, people, player, player2):
    match = new_match(creator=player, players=[player], private=True)
    url = reverse("games:match-invite", args=[match.invite_code])
    expected = {"anon": LOGIN, "stranger": 200, "player": 302, "staff": 200}[role]
    _check(client_for(people[role]).get(url), expected)


# Actions on a running match: only the seated player may act; nothing changes otherwise.
ACTIONS = [
    ("games:order-submit", {"order": '{"guess": 50}'}),
    ("games:checkin", {}),
]


@pytest.mark.parametrize("name,data", ACTIONS, ids=[a[0] for a in ACTIONS])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
def test_player_actions(role, name, data, private, people, player, player2):
    match = new_match(creator=player, players=[player, player2], start=True, private=private)
    phase = open_phase(match)
    def changes():  # the public version plus every seat's own (a private action bumps that)
        return Match.objects.get(pk=match.pk).version + sum(
            match.seats.values_list("version", flat=True))

    before = changes()
    resp = client_for(people[role]).post(
        reverse(name, args=[match.pk]),
        {**data, "phase_id": phase.pk, "version": Match.objects.get(pk=match.pk).version})
    expected = {"anon": LOGIN, "stranger": 404 if private else 403, "player": 302,
                "staff": 403}[role]
    _check(resp, expected)
    assert (changes() > before) == (role == "player")


@pytest.mark.parametrize("role", ROLES)
def test_checkin_withdraw(role, people, player, player2):
    from games.services.seats import seat_checkin

    match = new_match(creator=player, players=[player, player2], start=True)
    phase = open_phase(match)
    seat_checkin(match=match, seat=seat_of(match, player))
    resp = client_for(people[role]).post(reverse("games:checkin-withdraw", args=[match.pk]),
                                         {"phase_id": phase.pk})
    _check(resp, {"anon": LOGIN, "stranger": 403, "player": 302, "staff": 403}[role])
    still = CheckIn.objects.filter(phase=phase, seat=seat_of(match, player)).exists()
    assert still == (role != "player")


@pytest.mark.parametrize("role", ROLES)
def test_join_leave_start(role, people, player, player2):
    match = new_match(creator=player, players=[player2])
    c = client_for(people[role])
    resp = c.post(reverse("games:match-join", args=[match.pk]))
    _check(resp, LOGIN if role == "anon" else 302)
    joined = match.seats.filter(user=people[role]).exists() if people[role] else False
    assert joined == (role != "anon")
    resp = c.post(reverse("games:match-leave", args=[match.pk]))
    _check(resp, LOGIN if role == "anon" else 302)
    assert not (people[role] and match.seats.filter(user=people[role]).exists())
    resp = c.post(reverse("games:match-start", args=[match.pk]))
    # only the creator (player) and staff may start: 2 players are seated (player2 + ...)
    expected = {"anon": LOGIN, "stranger": 403, "player": None, "staff": None}[role]
    if expected is not None:
        _check(resp, expected)
        assert Match.objects.get(pk=match.pk).status == Match.Status.FORMING
    else:
        assert resp.status_code in (302, 409)


@pytest.mark.parametrize("role", ROLES)
def test_join_private_needs_invite(role, people, player):
    match = new_match(creator=player, players=[player], private=True)
    resp = client_for(people[role]).post(reverse("games:match-join", args=[match.pk]))
    expected = {"anon": LOGIN, "stranger": 404, "player": 403, "staff": None}[role]
    if expected is not None:
        _check(resp, expected)
    else:
        assert 400 <= resp.status_code < 500 or resp.status_code == 302
    assert match.seats.filter(user__username="mallory").count() == 0


# --- API -------------------------------------------------------------------------------

API_GET = ["games:api-match", "games:api-diary"]


@pytest.mark.parametrize("role", ROLES)
def test_api_matches(role, people):
    resp = client_for(people[role]).get(reverse("games:api-matches"))
    assert resp.status_code == (401 if role == "anon" else 200)
    assert resp.json()["ok"] is (role != "anon")


@pytest.mark.parametrize("name", API_GET)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
def test_api_reads(role, name, private, people, player, player2):
    match = new_match(creator=player, players=[player, player2], start=True, private=private)
    resp = client_for(people[role]).get(reverse(name, args=[match.pk]))
    expected = {"anon": 401, "stranger": 404 if private else 200, "player": 200,
                "staff": 200}[role]
    assert resp.status_code == expected
    body = resp.json()
    assert body["ok"] is (expected == 200)
    if expected != 200:
        assert set(body["error"]) == {"code", "message", "field", "details"}


API_POST = [
    ("games:api-order-submit", {"order": {"guess": 42}}),
    ("games:api-checkin", {}),
]


@pytest.mark.parametrize("name,data", API_POST, ids=[a[0] for a in API_POST])
@pytest.mark.parametrize("role", ROLES)
def test_api_actions(role, name, data, people, player, player2):
    match = new_match(creator=player, players=[player, player2], start=True)

    def changes():  # the public version plus every seat's own (a private action bumps that)
        return Match.objects.get(pk=match.pk).version + sum(
            match.seats.values_list("version", flat=True))

    before = changes()
    resp = client_for(people[role]).post(reverse(name, args=[match.pk]),
                                         json.dumps(data), content_type="application/json")
    expected = {"anon": 401, "stranger": 403, "player": 200, "staff": 403}[role]
    assert resp.status_code == expected, resp.content
    assert (changes() > before) == (expected == 200)


@pytest.mark.parametrize("role", ROLES)
def test_api_withdraw(role, people, player, player2):
    from games.services.seats import seat_checkin

    match = new_match(creator=player, players=[player, player2], start=True)
    seat_checkin(match=match, seat=seat_of(match, player))
    resp = client_for(people[role]).post(reverse("games:api-checkin-withdraw", args=[match.pk]),
                                         "{}", content_type="application/json")
    assert resp.status_code == {"anon": 401, "stranger": 403, "player": 200, "staff": 403}[role]


@pytest.mark.parametrize("role", ROLES)
def test_api_token_create_and_revoke(role, people):
    resp = client_for(people[role]).post(reverse("accounts:api-token-create"),
                                         {"name": "bot", "scope": "read", "days": 30})
    _check(resp, LOGIN if role == "anon" else 200)
    from accounts.models import ApiToken

    theirs = ApiToken.objects.create(user=people["player"] if role != "player" else people["staff"])
    resp = client_for(people[role]).post(reverse("accounts:api-token-revoke", args=[theirs.pk]))
    _check(resp, LOGIN if role == "anon" else 404)


# --- the rest of the accounts URLs ---------------------------------------------------------

ACCOUNT_GETS = [
    ("accounts:password_change", {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("accounts:password_change_done", {"anon": LOGIN, "stranger": 200, "player": 200, "staff": 200}),
    ("accounts:password_reset_done", {r: 200 for r in ROLES}),
    ("accounts:password_reset_complete", {r: 200 for r in ROLES}),
]


@pytest.mark.parametrize("name,expected", ACCOUNT_GETS, ids=[a[0] for a in ACCOUNT_GETS])
@pytest.mark.parametrize("role", ROLES)
def test_account_pages(role, name, expected, people):
    _check(client_for(people[role]).get(reverse(name)), expected[role])


@pytest.mark.parametrize("role", ROLES)
def test_password_reset_confirm_with_a_bad_link(role, people):
    url = reverse("accounts:password_reset_confirm", args=["MQ", "bad-token"])
    resp = client_for(people[role]).get(url)
    assert resp.status_code == 200 and b"invalid or was already used" in resp.content


@pytest.mark.parametrize("role", ROLES)
def test_logout_is_post_only(role, people):
    c = client_for(people[role])
    assert c.get(reverse("accounts:logout")).status_code == 405
    assert c.post(reverse("accounts:logout")).status_code == 302
    assert c.get(reverse("accounts:profile")).status_code == 302  # logged out now


@pytest.mark.parametrize("role", ROLES)
def test_unsubscribe_link_works_for_anyone_holding_it(role, people, player):
    from games.lib.unsubscribe import make_token

    url = reverse("games:unsubscribe", args=[make_token(player, "digest")])
    assert client_for(people[role]).get(url).status_code == 200


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
def test_the_per_match_email_choice(role, private, people, player, player2):
    """Only the seated player may set their email choice for a match."""
    from games.models import Seat

    match = new_match(creator=player, players=[player, player2], start=True, private=private)
    resp = client_for(people[role]).post(reverse("games:seat-email", args=[match.pk]),
                                         {"email_mode": "off"})
    expected = {"anon": LOGIN, "stranger": 404 if private else 403, "player": 302,
                "staff": 403}[role]
    _check(resp, expected)
    modes = set(Seat.objects.filter(match=match).values_list("email_mode", flat=True))
    assert modes == ({"off", ""} if role == "player" else {""})


def test_the_matrix_covers_every_url_we_define():
    """Every named URL of the games and accounts namespaces appears in a test above."""
    from django.urls import get_resolver

    source = open(__file__).read()
    names = set()
    for ns in ("games", "accounts"):
        resolver = get_resolver().namespace_dict[ns][1]
        names |= {f"{ns}:{n}" for n in resolver.reverse_dict if isinstance(n, str)}
    missing = {n for n in names if f'"{n}"' not in source}
    assert not missing, missing


@pytest.mark.parametrize("role", ROLES)
def test_the_verification_and_second_factor_pages(role, people):
    """Sign-up's "check your email" page, a bad verification link, the resend form and the
    second-factor page: clear pages for anyone, never a 5xx, never another user's data."""
    c = client_for(people[role])
    codes = {
        "signup-done": c.get(reverse("accounts:signup-done")).status_code,
        "verify-email": c.get(reverse("accounts:verify-email", args=["MQ", "bad-token"])).status_code,
        "verify-email-resend": c.get(reverse("accounts:verify-email-resend")).status_code,
        "otp": c.get(reverse("accounts:otp")).status_code,
    }
    expected = {
        "signup-done": 200,
        "verify-email": 400,  # a bad link is refused with a page that says so
        "verify-email-resend": 302 if role == "anon" else 405,  # login first; POST only
        "otp": 302 if role == "anon" else 200,
    }
    assert codes == expected


@pytest.mark.parametrize("role", ROLES)
def test_the_account_control_pages(role, people):
    """Change email, its link, delete and export (docs/accounts.md): a visitor is sent to
    log in (the export answers the API's 401), a bad link is a clear 400, never a 5xx."""
    c = client_for(people[role])
    codes = {
        "email-change": c.get(reverse("accounts:email-change")).status_code,
        "email-change-confirm": c.get(reverse("accounts:email-change-confirm",
                                              args=["bad-token"])).status_code,
        "account-delete": c.get(reverse("account-delete")).status_code,
        "account-export": c.get(reverse("account-export")).status_code,
    }
    anon = role == "anon"
    expected = {
        "email-change": 302 if anon else 405,  # login first; POST only
        "email-change-confirm": 400,
        "account-delete": 302 if anon else 200,
        "account-export": 401 if anon else 200,
    }
    assert codes == expected


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
def test_api_past_phase(role, private, people, player, player2):
    """``games:api-phase`` (issue 32): the live view's access rules, for a closed phase."""
    from games.services.phases import phase_close

    match = new_match(creator=player, players=[player, player2], start=True, private=private)
    phase_close(phase_id=open_phase(match).pk)
    resp = client_for(people[role]).get(reverse("games:api-phase", args=[match.pk, 1]))
    expected = {"anon": 401, "stranger": 404 if private else 200, "player": 200,
                "staff": 200}[role]
    assert resp.status_code == expected, resp.content
    assert resp.json()["ok"] is (expected == 200)
