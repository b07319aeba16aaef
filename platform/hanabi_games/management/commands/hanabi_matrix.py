"""manage.py hanabi_matrix [--players 2] [--setting watson]: the cross-play matrix as text."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from hanabi_games.selectors import crossplay_matrix


class Command(BaseCommand):
    help = "Print the Hanabi cross-play matrix from stored runs (diagonal = self-play)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--setting", default=None)

    def handle(self, *args, players: int, setting: str | None, **options):
        mx = crossplay_matrix(players=players, setting=setting)
        agents = mx["agents"]
        width = max([len(a) for a in agents] + [8])
        self.stdout.write(" " * width + "".join(f"{a:>{width + 2}}" for a in agents))
        for row in agents:
            cells = mx["cells"].get(row, {})
            line = "".join(
                f"{cells[c]['score']:>{width + 2}.2f}" if c in cells and cells[c]["score"] is not None
                else f"{'-':>{width + 2}}" for c in agents)
            self.stdout.write(f"{row:<{width}}{line}")
        fmt = lambda v: "n/a" if v is None else f"{v:.2f}"
        self.stdout.write(f"self-play (diagonal) mean {fmt(mx['diagonal_mean'])}, cross-play mean "
                          f"{fmt(mx['off_diagonal_mean'])}, gap {fmt(mx['gap'])}")
