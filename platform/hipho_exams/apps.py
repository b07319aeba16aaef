from django.apps import AppConfig


class HiphoExamsConfig(AppConfig):
    name = "hipho_exams"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "HiPhO exams"  # the admin index shows this, not "Hipho_Exams"
