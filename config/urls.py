"""Top-level URLs: the framework, accounts, each game app's own screens, the admin."""

from __future__ import annotations

from importlib.util import find_spec

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]
for _app in settings.GAME_APPS:
    if find_spec(f"{_app}.urls"):
        urlpatterns.append(path(f"{_app}/", include(f"{_app}.urls")))
