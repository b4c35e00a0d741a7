"""API tokens (issue 14): shown once, stored as SHA-256, named, scoped (read / play),
expiring, several per user, revocable, last use shown on the profile; plain tokens made
before are hashed by the migration."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken, hash_api_key
from tests.games.views.conftest import client_for, open_phase

pytestmark = pytest.mark.django_db


def _make(client, **data) -> str:
    resp = client.post(reverse("accounts:api-token-create"),
                       {"name": "bot", "scope": "play", "days": 90, **data})
    assert resp.status_code == 200, resp.content[:500]
    return re.search(r'id="api-key"[^>]*value="([^"]+)"', resp.content.decode()).group(1)


def _api(key: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {key}", enforce_csrf_checks=True)


def test_the_database_holds_only_the_hash(player, player_client):
    key = _make(player_client)
    token = ApiToken.objects.get(user=player)
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest() == hash_api_key(key)
    assert token.prefix and key.startswith(token.prefix)
    with connection.cursor() as cur:
        cur.execute("SELECT * FROM accounts_apitoken")
        assert key not in repr(cur.fetchall())
    # the profile never shows it again: only the prefix
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert key not in page and token.prefix in page


def test_several_named_tokens_each_revocable(player, player_client):
    k1 = _make(player_client, name="laptop bot")
    k2 = _make(player_client, name="phone script", scope="read")
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert "laptop bot" in page and "phone script" in page
    url = reverse("games:api-matches")
    assert _api(k1).get(url).status_code == 200 and _api(k2).get(url).status_code == 200
    first = ApiToken.objects.get(name="laptop bot")
    assert player_client.post(reverse("accounts:api-token-revoke", args=[first.pk])).status_code == 302
    assert _api(k1).get(url).status_code == 401
    assert _api(k2).get(url).status_code == 200


def test_someone_elses_token_cannot_be_revoked(player_client, stranger):
    other = ApiToken.objects.create(user=stranger)
    resp = player_client.post(reverse("accounts:api-token-revoke", args=[other.pk]))
    assert resp.status_code == 404
    other.refresh_from_db()
    assert other.revoked_at is None


def test_read_scope_reads_but_cannot_play(player, running_match):
    read = ApiToken.objects.create(user=player, scope=ApiToken.Scope.READ)
    play = ApiToken.objects.create(user=player, scope=ApiToken.Scope.PLAY)
    phase = open_phase(running_match)
    url = reverse("games:api-order-submit", args=[running_match.pk])
    body = '{"order": {"guess": 5}, "phase_id": %d}' % phase.pk
    assert _api(read.key).get(reverse("games:api-match", args=[running_match.pk])).status_code == 200
    refused = _api(read.key).post(url, body, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "TOKEN_SCOPE"
    assert not running_match.phases.get(pk=phase.pk).orders.exists()
    assert _api(play.key).post(url, body, content_type="application/json").status_code == 200


def test_expired_token_is_refused(player):
    token = ApiToken.objects.create(user=player, expires_at=timezone.now() - timedelta(seconds=1))
    resp = _api(token.key).get(reverse("games:api-matches"))
    assert resp.status_code == 401 and resp.json()["error"]["code"] == "BAD_TOKEN"


def test_expiry_is_chosen_and_bounded(player, player_client):
    _make(player_client, days=7)
    token = ApiToken.objects.get(user=player)
    assert timedelta(days=6) < token.expires_at - timezone.now() <= timedelta(days=7)
    bad = player_client.post(reverse("accounts:api-token-create"),
                             {"name": "x", "scope": "play", "days": 100000})
    assert bad.status_code == 400 and ApiToken.objects.count() == 1
    bad = player_client.post(reverse("accounts:api-token-create"),
                             {"name": "x", "scope": "admin", "days": 7})
    assert bad.status_code == 400 and ApiToken.objects.count() == 1


def test_last_use_is_shown(player, player_client):
    key = _make(player_client)
    assert "never" in player_client.get(reverse("accounts:profile")).content.decode()
    _api(key).get(reverse("games:api-matches"))
    token = ApiToken.objects.get(user=player)
    assert token.last_used_at is not None
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert re.search(rf'id="token-{token.pk}".*?never', page, re.S) is None


@pytest.mark.django_db(transaction=True)
def test_migration_hashes_existing_plain_tokens(player):
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    before = [("accounts", "0003_notification_policy_outbox")]
    after = [("accounts", "0005_api_token_drop_plain_key")]
    executor.migrate(before)
    try:
        old_apps = executor.loader.project_state(before).apps
        OldToken = old_apps.get_model("accounts", "ApiToken")
        OldToken.objects.create(user_id=player.pk, key="plain-old-key-abc")
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    token = ApiToken.objects.get(user=player)
    assert token.key_hash == hashlib.sha256(b"plain-old-key-abc").hexdigest()
    assert _api("plain-old-key-abc").get(reverse("games:api-matches")).status_code == 200


def test_a_non_owner_sees_nothing_of_my_tokens(player, stranger):
    ApiToken.objects.create(user=player, name="secret-bot-name")
    page = client_for(stranger).get(reverse("accounts:profile")).content.decode()
    assert "secret-bot-name" not in page
