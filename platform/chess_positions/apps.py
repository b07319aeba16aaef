from django.apps import AppConfig


class ChessPositionsConfig(AppConfig):
    name = "chess_positions"
    default_auto_field = "django.db.models.BigAutoField"
