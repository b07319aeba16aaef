"""manage.py hanabi_matrix [--players 2] [--setting watson]: the cross-play matrix as text.

Each cell is the mean HLE score (0 when the last life is lost) ± its standard error and the
number of games n; ``--fireworks`` adds the secondary fireworks total (cards kept on a
bomb-out) under it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from hanabi_games.selectors import crossplay_matrix


def _cell(cell: dict | None, *, fireworks: bool) -> list[str]:
    if cell is None or cell.get("score") is None:
        return ["-", ""] if fireworks else ["-"]
    se = cell.get("score_se")
    text = f"{cell['score']:.2f}±{se:.2f}" if se is not None else f"{cell['score']:.2f}±n/a"
    lines = [f"{text} n={cell.get('games')}"]
    if fireworks:
        fw = cell.get("fireworks")
        lines.append("fw " + (f"{fw:.2f}" if fw is not None else "n/a"))
    return lines


class Command(BaseCommand):
    help = (
        "Print the Hanabi cross-play matrix from stored runs (diagonal = self-play): "
        "HLE score ± SE and n per cell."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--setting", default=None)
        parser.add_argument(
            "--fireworks",
            action="store_true",
            help="also print the mean fireworks total (secondary) per cell",
        )

    def handle(self, *args, players: int, setting: str | None, fireworks: bool = False, **options):
        mx = crossplay_matrix(players=players, setting=setting)
        agents = mx["agents"]
        cells = {
            (r, c): _cell(mx["cells"].get(r, {}).get(c), fireworks=fireworks)
            for r in agents
            for c in agents
        }
        width = max([len(a) for a in agents] + [8])
        col = max([len(x) for v in cells.values() for x in v] + [len(a) for a in agents]) + 2
        self.stdout.write(
            f"HLE score (0 when the last life is lost), mean ± SE, n games; "
            f"{players} players; row = model, column = partner"
        )
        self.stdout.write(" " * width + "".join(f"{a:>{col}}" for a in agents))
        for row in agents:
            for i in range(2 if fireworks else 1):
                label = row if i == 0 else ""
                self.stdout.write(
                    f"{label:<{width}}" + "".join(f"{cells[(row, c)][i]:>{col}}" for c in agents)
                )
        fmt = lambda v: "n/a" if v is None else f"{v:.2f}"  # noqa: E731
        self.stdout.write(
            f"self-play (diagonal) mean {fmt(mx['diagonal_mean'])}, cross-play mean "
            f"{fmt(mx['off_diagonal_mean'])}, gap {fmt(mx['gap'])}"
        )
