"""Sign up, log in/out, password reset, profile."""

from django.urls import path

app_name = "accounts"
urlpatterns: list = []
