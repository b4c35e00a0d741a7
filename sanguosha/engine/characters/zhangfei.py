"""Zhang Fei: Roar **C** — no Kill limit (checked in ``options.can_kill_more``)."""

from __future__ import annotations

COMPULSORY = ("paoxiao",)
