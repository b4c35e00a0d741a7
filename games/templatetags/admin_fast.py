"""``{% fast_result_list cl %}``: Django's ``{% result_list %}`` with each row rendered
in Python (games/lib/adminlist.py), for the admin's long lists."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.admin.templatetags.base import InclusionAdminNode

from games.lib.adminform import render_fieldset
from games.lib.adminlist import fast_result_list

register = template.Library()


@register.tag(name="fast_result_list")
def fast_result_list_tag(parser: Any, token: Any) -> InclusionAdminNode:
    return InclusionAdminNode(parser, token, func=fast_result_list,
                              template_name="change_list_results.html", takes_context=False)


@register.simple_tag
def fast_fieldset(fieldset: Any, index: int) -> Any:
    """The fieldset rendered in Python (games/lib/adminform.py), or ``""`` when it needs
    Django's ``admin/includes/fieldset.html`` (the template then includes it)."""
    return render_fieldset(fieldset, index) or ""
