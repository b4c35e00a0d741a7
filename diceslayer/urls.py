"""Dice Slayer's screens, under /diceslayer/ (namespace ``diceslayer``)."""

from __future__ import annotations

from django.urls import path

from diceslayer import views

app_name = "diceslayer"
urlpatterns = [
    path("", views.home, name="home"),
    path("solo/new/", views.solo_new, name="solo-new"),
    path("daily/", views.daily, name="daily"),
    path("daily/play/", views.daily_play, name="daily-play"),
    path("daily/<str:day>/", views.daily, name="daily-day"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("versus/new/", views.versus_new, name="versus-new"),
    path("versus/<int:match_id>/join/", views.versus_join, name="versus-join"),
    path("m/<int:match_id>/", views.play, name="play"),
    path("m/<int:match_id>/board/", views.board, name="board"),
    path("m/<int:match_id>/pick/", views.pick, name="pick"),
    path("m/<int:match_id>/replay/", views.replay, name="replay"),
    path("m/<int:match_id>/accept/", views.challenge_accept, name="challenge-accept"),
    path("m/<int:match_id>/decline/", views.challenge_decline, name="challenge-decline"),
    path("m/<int:match_id>/rematch/", views.rematch, name="rematch"),
]
