from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from chess_positions.services import positions_generate
from games.chess.engine import EngineNotFoundError


class Command(BaseCommand):
    help = "Generate a position set from Stockfish self-play and register its benchmarks."

    def add_arguments(self, parser):
        parser.add_argument("--n", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--name", default="generated")
        parser.add_argument("--nodes", type=int, default=None)
        parser.add_argument("--out", required=True, help="where to write the JSON position set")
        parser.add_argument("--no-register", action="store_true")

    def handle(self, *args, **opts):
        try:
            benches = positions_generate(
                out=opts["out"],
                n=opts["n"],
                seed=opts["seed"],
                name=opts["name"],
                nodes=opts["nodes"],
                register=not opts["no_register"],
            )
        except EngineNotFoundError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"wrote {opts['n']} positions to {opts['out']}")
        for b in benches:
            self.stdout.write(f"registered {b.slug}")
