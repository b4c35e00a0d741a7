"""Framework signals, so apps beside ``games`` (ratings, absence tracking) follow the phase
close without ``games`` importing them. Both are sent inside the close's transaction:
a receiver's writes commit or roll back with the close itself.
"""

from __future__ import annotations

from django.dispatch import Signal

# phase_closed(match, phase, absent, opened): ``opened`` is the next phase or None;
# ``absent`` are the awaited seat numbers that neither
# acted nor checked in (their defaults or the bot played).
phase_closed = Signal()

# match_finished(match): the match has just become FINISHED (``match.outcome`` is set).
match_finished = Signal()
