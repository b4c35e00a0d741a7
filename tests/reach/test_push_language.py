"""A push (and a webhook's sentence) is said in its reader's language, the phase's label
included (issue 26): the facts are gathered inside the reader's language."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from games.models import Notification
from games.templatetags.games_tags import phase_label
from reach.messages import push_payload, webhook_document
from tests.factories import make_match, make_user
from tests.reach.helpers import close_open_phase

pytestmark = pytest.mark.django_db


def test_push_title_and_phase_label_in_the_readers_language():
    from django.utils import translation

    me, other = make_user(), make_user()
    Profile.objects.update_or_create(user=me, defaults={"language": "ja"})
    match = make_match(users=[me, other])
    close_open_phase(match)
    row = Notification.objects.filter(recipient=me, phase__isnull=False).order_by("-pk").first()
    assert row is not None
    row.phase.kind = "tactical"  # a phase kind with a label in the catalogue
    row.phase.save(update_fields=["kind"])
    payload = push_payload(row)
    with translation.override("ja"):
        label = str(phase_label(row.phase.kind))
    with translation.override("en"):
        english = str(phase_label(row.phase.kind))
    assert label == "タクティカル" and english == "Tactical"
    assert label in payload["body"] and english not in payload["body"]
    assert match.name in payload["title"] and payload["title"] != match.name
    assert label in webhook_document(row)["text"]
