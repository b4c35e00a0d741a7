"""Kill Game's own URLs, mounted at ``/killgame/`` (config/urls.py)."""

from __future__ import annotations

from django.urls import path

from killgame import views

app_name = "killgame"

urlpatterns = [
    path("m/<int:match_id>/order/", views.order, name="order"),
    path("m/<int:match_id>/watch/", views.watch, name="watch"),
    path("m/<int:match_id>/replay/", views.replay, name="replay"),
]
