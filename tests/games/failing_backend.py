"""An email backend that always fails (tests of the outbox's retries)."""

from __future__ import annotations

from django.core.mail.backends.base import BaseEmailBackend


class FailingBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise ConnectionRefusedError("smtp is down")
