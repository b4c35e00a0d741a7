"""``{% fast_result_list cl %}``: Django's ``{% result_list %}`` with each row rendered
in Python (games/lib/adminlist.py), for the admin's long lists."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.admin.templatetags.base import InclusionAdminNode

from games.lib.adminlist import fast_result_list

register = template.Library()


@register.tag(name="fast_result_list")
def fast_result_list_tag(parser: Any, token: Any) -> InclusionAdminNode:
    return InclusionAdminNode(parser, token, func=fast_result_list,
                              template_name="change_list_results.html", takes_context=False)
