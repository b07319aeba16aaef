"""Nim's page and item viewer, included into the site's "leaderboard" namespace by the registry."""

from django.urls import path

from tests.families.nim import views

urlpatterns = [
    path("nim/", views.index, name="nim"),
    path("items/<int:pk>/nim/", views.game_view, name="nim_game"),
]
