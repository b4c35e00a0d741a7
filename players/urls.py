from django.urls import path

from players import views

app_name = "players"
urlpatterns = [
    path("away/", views.away, name="away"),
    path("open-seats/", views.open_seats, name="open-seats"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("m/<int:match_id>/seats/", views.match_seats, name="match-seats"),
    path("m/<int:match_id>/seats/<str:number>/vote/", views.seat_vote, name="seat-vote"),
    path("m/<int:match_id>/seats/<str:number>/open/", views.seat_open, name="seat-open"),
    path("m/<int:match_id>/seats/<str:number>/claim/", views.seat_claim, name="seat-claim"),
    path("m/<int:match_id>/pause/", views.match_emergency_pause, name="emergency-pause"),
    path("m/<int:match_id>/rules/", views.match_rules, name="match-rules"),
    path("u/<str:username>/", views.profile, name="profile"),
]
