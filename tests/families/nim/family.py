"""The Nim family's registry declaration, named by PODIUM_EXTRA_FAMILIES."""

from evaluators.registry import FamilySpec, Viewer

FAMILY = FamilySpec(
    slug="nim",
    label="Nim",
    package="tests.families.nim",
    metrics="tests.families.nim.metrics:NimMetrics",
    entries="tests.families.nim.entries:entry_values",
    web="tests.families.nim.urls",
    page="nim",
    viewers=(Viewer("game", "nim_game"),),
    game="tests.families.nim.evaluator:game_view",
    description="test-only: Nim against a built-in opponent",
)
