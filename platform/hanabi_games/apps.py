from django.apps import AppConfig


class HanabiGamesConfig(AppConfig):
    name = "hanabi_games"
    default_auto_field = "django.db.models.BigAutoField"
