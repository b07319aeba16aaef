from django.core.management.base import BaseCommand

from leaderboard.services import leaderboard_refresh_all


class Command(BaseCommand):
    help = "Rebuild the leaderboard read model from every aggregated run."

    def handle(self, *args, **options):
        self.stdout.write(f"refreshed {leaderboard_refresh_all()} model/benchmark pairs")
