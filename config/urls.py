"""Top-level URLs: the framework, accounts, each game app's own screens, the admin."""

from __future__ import annotations

from importlib.util import find_spec

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from config.favicon import favicon
from config.health import healthz
from config.metrics import metrics
from players import account_views

handler500 = "config.outage.server_error"  # a database outage is a 503, not a 500

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("metrics", metrics, name="metrics"),  # Prometheus (docs/operations.md "Metrics")
    path("admin/", admin.site.urls),
    # accounts people control (players.account): beside accounts' own URLs
    path("accounts/delete/", account_views.delete, name="account-delete"),
    path("api/me/export/", account_views.export, name="account-export"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the visitors' switcher
    path("players/", include("players.urls")),
    path("", include("games.urls")),
    path("", include("players.api_urls")),  # JSON API (docs/api.md)
    path("", include("press.urls")),
    path("", include("reach.urls")),  # /manifest.webmanifest, /sw.js, /api/push/…, /api/webhooks/
]
# A game's own screens (optional: a game whose pages are all the framework's has no urls.py)
urlpatterns += [path(f"{app}/", include(f"{app}.urls")) for app in settings.GAME_APPS
                if find_spec(f"{app}.urls") is not None]
# A game's own JSON API (optional: ``<app>/api_urls.py``, paths under /api/)
urlpatterns += [path("", include(f"{app}.api_urls")) for app in settings.GAME_APPS
                if find_spec(f"{app}.api_urls") is not None]
