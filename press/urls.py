"""Press URLs: the JSON API beside the framework's (``/api/matches/<id>/messages/``) and
the panel's pages and actions under ``/press/``."""

from __future__ import annotations

from django.urls import path

from press import api, views

app_name = "press"
urlpatterns = [
    path("api/matches/<str:match_id>/messages/", api.messages, name="api-messages"),
    path("press/unread/", views.unread, name="unread"),
    path("press/m/<int:match_id>/", views.page, name="page"),
    path("press/m/<int:match_id>/list/", views.message_list, name="list"),
    path("press/m/<int:match_id>/post/", views.post, name="post"),
    path("press/m/<int:match_id>/mute/", views.mute, name="mute"),
    path("press/m/<int:match_id>/msg/<int:message_id>/report/", views.report, name="report"),
    path("press/m/<int:match_id>/msg/<int:message_id>/hide/", views.hide, name="hide"),
]
