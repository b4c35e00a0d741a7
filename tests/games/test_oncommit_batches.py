"""The deadline sweep's held email tasks go out in chunks of one sender's batch
(``EMAIL_BATCH_SIZE``), whatever that is set to."""

from __future__ import annotations

from django.test import override_settings

from games.lib import oncommit


def test_deferred_chunks_email_ids_by_the_batch_size(monkeypatch):
    sent = []
    monkeypatch.setattr(oncommit, "_send", lambda name, *args: sent.append((name, args)))
    with override_settings(EMAIL_BATCH_SIZE=3):
        with oncommit.deferred():
            oncommit.enqueue("notifications_send", [1, 2])
            oncommit.enqueue("phase_close", 7)
            oncommit.enqueue("notifications_send", [3, 4, 5, 6, 7])
            assert sent == []  # held until the block ends
    assert sent == [("phase_close", (7,)),
                    ("notifications_send", ([1, 2, 3],)),
                    ("notifications_send", ([4, 5, 6],)),
                    ("notifications_send", ([7],))]
