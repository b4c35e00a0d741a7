"""The players app's JSON API URLs (``players.api``), under ``/api/`` beside the framework's."""

from __future__ import annotations

from django.urls import path

from players import api

app_name = "players-api"
urlpatterns = [
    path("api/away/", api.away, name="away"),
    path("api/away/<str:away_id>/cancel/", api.away_cancel_view, name="away-cancel"),
    path("api/matches/<str:match_id>/seats/", api.seats, name="seats"),
    path("api/matches/<str:match_id>/seats/<str:number>/vote/", api.vote, name="seat-vote"),
    path("api/matches/<str:match_id>/seats/<str:number>/claim/", api.claim, name="seat-claim"),
    path("api/matches/<str:match_id>/emergency-pause/", api.emergency_pause,
         name="emergency-pause"),
    path("api/matches/<str:match_id>/director/seats/<str:number>/open/", api.seat_open,
         name="seat-open"),
]
