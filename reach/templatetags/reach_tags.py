"""The profile page's "Notifications on your devices" section (reach's part of it)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse

from games.models import Match
from reach import services, vapid
from reach.models import Mode, PushSubscription, Webhook

register = template.Library()


@register.inclusion_tag("reach/profile_section.html", takes_context=True)
def reach_profile(context: Any) -> dict[str, Any]:
    request = context["request"]
    user = request.user
    prefs = services.prefs_for(user)
    hookable = Match.objects.filter(status__in=[Match.Status.FORMING, Match.Status.RUNNING,
                                                Match.Status.PAUSED])
    if not user.is_staff:
        hookable = hookable.filter(created_by=user)
    return {
        "request": request, "csrf_token": context.get("csrf_token"),
        "push_on": vapid.server_key() is not None,
        "devices": PushSubscription.objects.filter(user=user).count(),
        "prefs": prefs, "modes": Mode.choices, "kinds": Webhook.Kind.choices,
        "webhooks": Webhook.objects.filter(user=user).select_related("match"),
        "hookable": list(hookable.order_by("-created_at").values_list("pk", "name")[:50]),
        "calendar_url": settings.SITE_URL + reverse(
            "reach:calendar-feed", args=[services.calendar_token(user)]),
    }
