"""Dice Slayer's JSON API URLs (``diceslayer.api``), under ``/api/diceslayer/``."""

from __future__ import annotations

from django.urls import path

from diceslayer import api

app_name = "diceslayer-api"
urlpatterns = [
    path("api/diceslayer/solo/", api.solo, name="solo"),
    path("api/diceslayer/daily/", api.daily, name="daily"),
    path("api/diceslayer/challenges/", api.challenges, name="challenges"),
    path("api/diceslayer/matches/<str:match_id>/join/", api.join, name="join"),
    path("api/diceslayer/matches/<str:match_id>/accept/", api.accept, name="accept"),
    path("api/diceslayer/matches/<str:match_id>/decline/", api.decline, name="decline"),
    path("api/diceslayer/matches/<str:match_id>/withdraw/", api.withdraw, name="withdraw"),
    path("api/diceslayer/matches/<str:match_id>/rematch/", api.rematch, name="rematch"),
]
