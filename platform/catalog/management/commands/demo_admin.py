import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo staff user 'admin' once, with a random password kept in var/admin-password."

    def handle(self, *args, **opts):
        User = get_user_model()
        path = settings.BASE_DIR / "var" / "admin-password"
        if User.objects.filter(username="admin").exists():
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser("admin", "admin@localhost", password)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(password + "\n")
        path.chmod(0o600)
        self.stdout.write("created staff user 'admin' (password in var/admin-password)")
