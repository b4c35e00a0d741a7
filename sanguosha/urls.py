"""Sanguosha's own screens: creating a table, the table page with its htmx fragment and
the answer POST, and the card and character catalogue."""

from __future__ import annotations

from django.urls import path

from sanguosha import views

app_name = "sanguosha"
urlpatterns = [
    path("new/", views.table_create, name="table-create"),
    path("m/<int:match_id>/", views.table, name="table"),
    path("m/<int:match_id>/fragment/", views.table_poll, name="table-poll"),
    path("m/<int:match_id>/sit/", views.table_sit, name="sit"),
    path("m/<int:match_id>/start/", views.table_start, name="start"),
    path("m/<int:match_id>/answer/", views.answer, name="answer"),
    path("m/<int:match_id>/answer/withdraw/", views.answer_withdraw, name="answer-withdraw"),
    path("cards/", views.catalogue, name="catalogue"),
    path("cards/<slug:slug>/", views.card_detail, name="card"),
    path("characters/<slug:slug>/", views.character_detail, name="character"),
]
