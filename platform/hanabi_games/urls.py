"""Hanabi's pages and item viewer. Included by leaderboard.urls inside the "leaderboard" namespace."""

from django.urls import path

from hanabi_games import views

urlpatterns = [
    path("hanabi/", views.hanabi, name="hanabi"),
    path("items/<int:pk>/replay/", views.replay, name="replay"),
]
