"""Lobby, match pages, fragments, one URL per player action, and the JSON API."""

from __future__ import annotations

from django.urls import path

from games import api, lookback_views, unsubscribe, views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("my/", views.my_games, name="my-games"),
    path("m/new/", views.match_create_choose, name="match-create"),
    path("m/new/<slug:slug>/", views.match_create_view, name="match-create-game"),
    path("m/<int:match_id>/", views.match_detail, name="match-detail"),
    path("m/<int:match_id>/poll/", views.match_poll, name="match-poll"),
    path("m/<int:match_id>/diary/", views.match_diary, name="match-diary"),
    path("m/<int:match_id>/join/", views.match_join_view, name="match-join"),
    path("m/<int:match_id>/leave/", views.match_leave_view, name="match-leave"),
    path("m/<int:match_id>/start/", views.match_start_view, name="match-start"),
    path("m/<int:match_id>/order/", views.order_submit_view, name="order-submit"),
    path("m/<int:match_id>/checkin/", views.checkin_view, name="checkin"),
    path("m/<int:match_id>/email/", views.seat_email_view, name="seat-email"),
    path("m/<int:match_id>/checkin/withdraw/", views.checkin_withdraw_view,
         name="checkin-withdraw"),
    path("join/<str:code>/", views.match_invite, name="match-invite"),
    # under /accounts/ because the links in emails already sent point there
    path("accounts/unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
    # JSON API (docs/api.md). Ids are parsed by the views so junk gets a JSON 404.
    path("api/matches/", api.matches, name="api-matches"),
    path("api/matches/<str:match_id>/", api.match_view, name="api-match"),
    path("api/matches/<str:match_id>/diary/", api.diary, name="api-diary"),
    path("api/matches/<str:match_id>/orders/", api.order_submit_view, name="api-order-submit"),
    path("api/matches/<str:match_id>/checkin/", api.checkin, name="api-checkin"),
    path("api/matches/<str:match_id>/phases/<str:number>/", lookback_views.api_phase,
         name="api-phase"),
    path("api/matches/<str:match_id>/checkin/withdraw/", api.checkin_withdraw,
         name="api-checkin-withdraw"),
]
