"""Chess's pages and item viewer. Included by leaderboard.urls inside the "leaderboard" namespace."""

from django.urls import path

from chess_positions import views

urlpatterns = [
    path("chess/", views.chess, name="chess"),
    path("items/<int:pk>/position/", views.position, name="position"),
]
