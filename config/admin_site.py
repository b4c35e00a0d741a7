"""The admin site: Django's, with the app list of its side bar built only when a page
shows it.

Django's ``AdminSite.each_context`` builds ``available_apps`` — every registered model
with its permissions and URLs, ~70 ``reverse`` calls here — for every admin page, to draw
the navigation side bar. The pages that do not draw it (the match list and the director's
match page, ``games/admin.py``) paid for it anyway: a third of an empty change form. Here
``each_context`` gives it as a lazy list, computed when a template first reads it; the
index, an app's index and the side bar read it as before.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.utils.functional import SimpleLazyObject

_in_each_context: ContextVar[bool] = ContextVar("pbw_admin_each_context", default=False)


class SiteAdmin(admin.AdminSite):
    def each_context(self, request: Any) -> dict[str, Any]:
        token = _in_each_context.set(True)
        try:
            return super().each_context(request)
        finally:
            _in_each_context.reset(token)

    def get_app_list(self, request: Any, app_label: str | None = None) -> Any:
        if _in_each_context.get() and app_label is None:
            build = super().get_app_list
            return SimpleLazyObject(lambda: build(request))
        return super().get_app_list(request, app_label)


class SiteAdminConfig(AdminConfig):
    """``INSTALLED_APPS``' admin (in place of ``django.contrib.admin``): its default site
    is :class:`SiteAdmin`."""

    default_site = "config.admin_site.SiteAdmin"
