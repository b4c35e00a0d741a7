"""Shared steps of the reach tests: close a phase with its outbox sent on commit."""

from __future__ import annotations

import json

from django.test import TestCase

from games import selectors
from games.services.phases import phase_close


def close_open_phase(match, now=None):
    """Close the open phase; the rows it writes are sent on commit (eager Celery)."""
    phase = selectors.current_phase(match)
    with TestCase.captureOnCommitCallbacks(execute=True):
        phase_close(phase_id=phase.pk, now=now, force=True)
    return selectors.current_phase(match)


def post_json(client, url, body, method="post"):
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")
