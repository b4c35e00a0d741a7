"""The link to an earlier phase as the reader saw it (issue 32, games/lib/lookback.py), for
emails: "what happened last phase" opens the closed phase on the match page."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse

register = template.Library()


@register.simple_tag
def last_phase_url(match: Any, opened: Any) -> str:
    """``{% last_phase_url match phase as url %}``: the absolute address of the phase closed
    just before ``opened`` (``?phase=<n>`` on the match page), or "" when there is none."""
    number = getattr(opened, "number", None)
    if match is None or getattr(match, "pk", None) is None or not number or number <= 1:
        return ""
    page = reverse("games:match-detail", args=[match.pk])
    return f"{settings.SITE_URL}{page}?phase={number - 1}"
