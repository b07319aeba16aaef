from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from chess_positions.services import puzzles_import
from games.chess.puzzles import PuzzleFormatError


class Command(BaseCommand):
    help = "Register a Lichess puzzle CSV (the full database or a sample) as a chess benchmark."

    def add_arguments(self, parser):
        parser.add_argument(
            "--csv", required=True, help="path of the Lichess puzzle CSV (UTF-8, decompressed)"
        )
        parser.add_argument("--slug", default=None)
        parser.add_argument("--name", default=None)
        parser.add_argument(
            "--limit", type=int, default=None, help="use the first N puzzles (after the filter)"
        )
        parser.add_argument("--min-rating", type=int, default=None)
        parser.add_argument("--max-rating", type=int, default=None)

    def handle(self, *args, **opts):
        try:
            bench = puzzles_import(
                csv_path=opts["csv"],
                slug=opts["slug"],
                name=opts["name"],
                limit=opts["limit"],
                min_rating=opts["min_rating"],
                max_rating=opts["max_rating"],
            )
        except PuzzleFormatError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"registered {bench.slug}: {bench.description}")
