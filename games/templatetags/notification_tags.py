"""Template tags of the email outbox: the profile page lists the reader's failed emails
(``accounts`` imports nothing of ``games``; its template loads this library instead)."""

from __future__ import annotations

from django import template

from games.services.notifications import notifications_failed_for

register = template.Library()


@register.simple_tag(takes_context=True)
def failed_emails(context) -> list:
    """The logged-in reader's emails that failed for good lately (newest first)."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return []
    return notifications_failed_for(user)
