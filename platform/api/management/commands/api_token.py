from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from api.services import api_token_create


class Command(BaseCommand):
    help = "Create an API token for a user and print it (shown once; only its hash is stored)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="cli")

    def handle(self, *args, username, name, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        if not user.is_staff:
            self.stderr.write(f"warning: {username} is not staff; write endpoints will answer 403")
        _, raw = api_token_create(user=user, name=name)
        self.stdout.write(raw)
