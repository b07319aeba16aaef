"""A test-only family (Nim) that proves a new family needs nothing outside its own packages:
it is registered from tests/ (tests/conftest.py, PODIUM_EXTRA_FAMILIES for worker processes)
and brings its evaluator, typed metrics, entries, pages, item viewer and API game view."""

from tests.families.nim.evaluator import NimEvaluator

EVALUATOR = NimEvaluator()
BUILTINS: dict[str, str] = {
    "nim-optimal": "Nim: Bouton's strategy",
    "nim-random": "Nim: random moves",
}
DEFAULT_BENCHMARKS: list[dict] = [
    {
        "slug": "nim/vs-optimal",
        "name": "Nim against Bouton's strategy",
        "version": "1",
        "config": {"positions": 4, "heaps": 3, "max_heap": 5, "opponent": "optimal"},
        "default_samples": 1,
        "description": "Four seeded start positions, the model moving first.",
    },
    {
        "slug": "nim/vs-random",
        "name": "Nim against random moves",
        "version": "1",
        "config": {"positions": 4, "heaps": 3, "max_heap": 5, "opponent": "random"},
        "default_samples": 2,
        "description": "Four seeded start positions, two games each.",
    },
]
DEMO_PLAYERS = ["nim-optimal", "nim-random"]
