from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from catalog import families
        from podium import checks  # noqa: F401  (registers the project's deploy checks)

        families.evaluators_configure()
        families.families_load_extra()  # and registers the family checks
