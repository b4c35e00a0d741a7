"""Property-based test of the JSON API against its own OpenAPI document (schemathesis):
every documented operation is called with bodies, ids and query strings generated from the
document, by a player with an ``all`` token in a world with matches of every state; no
answer is a 5xx, every status is a documented one, every body matches its documented
schema and content type. Few examples per operation, so it stays under a minute."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import (
    content_type_conformance, not_a_server_error, response_schema_conformance,
    status_code_conformance,
)

from accounts.models import ApiToken
from games.api_schema import document
from tests.games.views.conftest import new_match

pytestmark = pytest.mark.django_db(transaction=False)

EXAMPLES = 5  # per operation: ~40 operations, in well under a minute
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@pytest.fixture
def world(player, player2, staff):
    """A forming, a running and a private running match of the guess game (the player
    seated in each) and a Dice Slayer challenge to the player, tokens for the player
    (``all``) and the director (``director``)."""
    from diceslayer import services as dice

    matches = [new_match(creator=player, players=[player, player2]),
               new_match(creator=player, players=[player, player2], start=True),
               new_match(creator=player2, players=[player2, player], start=True, private=True),
               dice.versus_create(challenger=player2, opponent=player)]
    return {"matches": matches,
            "player": ApiToken.objects.create(user=player, scope=ApiToken.Scope.ALL),
            "staff": ApiToken.objects.create(user=staff, scope=ApiToken.Scope.DIRECTOR)}


@pytest.fixture
def wsgi_app():
    """Django's WSGI handler in this process, on the test's database connection: as the
    test client does, requests do not close the connection when they end."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _aimed(doc: dict, world: dict) -> dict:
    """The document with its path parameters drawn from what exists (the ids of the
    world's matches and a few others, their seats, the invite code), so the generated
    calls reach the views' logic rather than stopping at 404."""
    ids = [m.pk for m in world["matches"]]
    pools = {"match_id": [*ids, 0, max(ids) + 1], "number": [0, 1, 2, 99],
             "away_id": [1, 2], "code": [m.invite_code for m in world["matches"]] + ["nope"]}
    for item in doc["paths"].values():
        for param in item.get("parameters", []):
            if param["name"] in pools:
                param["schema"] = {"enum": pools[param["name"]]}
    return doc


def test_every_operation_keeps_its_documented_promises(world, wsgi_app):
    schema = schemathesis.openapi.from_dict(_aimed(document(), world))
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) >= 30
    statuses: dict[str, set[int]] = {}
    for operation in operations:
        director = operation.definition.raw.get("x-token-scope") == "director"
        headers = {"Authorization": f"Token {world['staff' if director else 'player'].key}"}

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=list(HealthCheck))
        def call(case):
            resp = case.call_and_validate(app=wsgi_app, headers=headers, checks=CHECKS)
            statuses.setdefault(operation.label, set()).add(resp.status_code)

        call()
    # the generated calls got past the lookups: most operations answered a 2xx at least once
    succeeded = [label for label, seen in statuses.items() if any(s < 300 for s in seen)]
    assert len(succeeded) >= len(operations) // 2, sorted(statuses.items())
