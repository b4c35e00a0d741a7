from django.urls import path

from players import views

app_name = "players"
urlpatterns = [
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("<str:username>/", views.profile, name="profile"),
]
