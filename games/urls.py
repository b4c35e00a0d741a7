"""Lobby, match pages, fragments, the JSON API."""

from django.urls import path

app_name = "games"
urlpatterns: list = []
