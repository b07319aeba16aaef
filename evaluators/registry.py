"""The one list of families. Everything the platform does per family loops over ``FAMILIES``.

A family declares here what it brings (see docs/adding_a_family.md): its evaluator package
(``EVALUATOR``, ``BUILTINS``, ``DEFAULT_BENCHMARKS``, optionally ``DEMO_PLAYERS``), the typed
structure of its run metrics, how those metrics become leaderboard entries, its regrading hook,
and its web package (pages and item viewers; a Django urls module). Everything is named by
module path and imported lazily, so a worker that only grades physics never loads OpenSpiel or
starts Stockfish, and this module imports nothing but the standard library and evaluators.base.

A family living outside this file (a test-only family, a private plug-in) is added with
``register_modules(["package.module"])``, the module holding ``FAMILY = FamilySpec(...)``; the
platform does that at start for each module named in the PODIUM_EXTRA_FAMILIES setting.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any, Literal

from evaluators.base import FamilyEvaluator
from evaluators.entries import EntryValues

SLUG_RE = re.compile(r"^[a-z][a-z0-9_]{0,9}$")  # LeaderboardEntry.family holds 10 characters


class UnknownFamilyError(KeyError):
    """A family slug that no registered family declares (a typo, or a plug-in not loaded)."""

    def __str__(self) -> str:  # KeyError quotes its argument; the message reads better plain
        return str(self.args[0]) if self.args else ""


class FamilySpecError(ValueError):
    """A family declaration is unusable; the message names the family and the field."""


def _resolve(ref: str) -> Any:
    """'package.module:attribute' -> the attribute (imported now)."""
    module, _, attr = ref.partition(":")
    return (
        getattr(importlib.import_module(module), attr) if attr else importlib.import_module(module)
    )


@dataclass(frozen=True)
class Viewer:
    """An item viewer the family's web package serves at a URL taking the item's pk."""

    label: str  # the link text on run and item pages ("replay", "position")
    url_name: str  # its url name in the site's "leaderboard" namespace


@dataclass(frozen=True, eq=False)
class FamilySpec:
    slug: str  # stored in Benchmark.family and LeaderboardEntry.family; at most 10 characters
    label: str  # shown in the nav, on the overview and in the API
    package: str  # module with EVALUATOR, BUILTINS, DEFAULT_BENCHMARKS (and optional DEMO_PLAYERS)
    metrics: str  # "module:Type": the TypedDict of Run.metrics, the writers' and readers' contract
    entries: str  # "module:function": (metrics, benchmark_name) -> list[EntryValues]
    web: str | None = (
        None  # the urls module of the family's pages and viewers (in the site namespace)
    )
    page: str | None = None  # url name of the family's main page (linked from the nav)
    viewers: tuple[Viewer, ...] = ()
    # how the family's overview headline counts a point: one per benchmark (and part), or one per
    # entry group (HiPhO: an exam counts once, whichever benchmark - single exam or suite - graded it)
    score_key: Literal["benchmark", "group"] = "benchmark"
    # "module:function": (config, key, details, judge) -> ItemOutcome; None = no regrading
    regrade: str | None = None
    # "module:function": an item's stored details -> the JSON the API's game endpoint returns
    # (raises ValueError when the details do not describe a game); None = no game items
    game: str | None = None
    description: str = ""

    def __post_init__(self) -> None:
        if not SLUG_RE.match(self.slug):
            raise FamilySpecError(f"family slug {self.slug!r} must match {SLUG_RE.pattern}")
        for name in ("label", "package", "metrics", "entries"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise FamilySpecError(
                    f"family {self.slug!r}: field {name!r} must be a non-empty string"
                )
        for name in ("metrics", "entries"):
            if ":" not in getattr(self, name):
                raise FamilySpecError(
                    f"family {self.slug!r}: field {name!r} must read 'module:attribute'"
                )
        if self.score_key not in ("benchmark", "group"):
            raise FamilySpecError(f"family {self.slug!r}: score_key must be 'benchmark' or 'group'")

    # --- lazily loaded parts ---------------------------------------------------------------

    @cached_property
    def module(self) -> ModuleType:
        return importlib.import_module(self.package)

    @property
    def evaluator(self) -> FamilyEvaluator:
        return self.module.EVALUATOR

    @property
    def builtins(self) -> dict[str, str]:
        """Built-in players (name -> display name) that can play this family."""
        return dict(self.module.BUILTINS)

    @property
    def default_benchmarks(self) -> list[dict[str, Any]]:
        return list(self.module.DEFAULT_BENCHMARKS)

    @property
    def demo_benchmarks(self) -> list[dict[str, Any]]:
        """The default benchmarks the demo runs (a benchmark opts out with "demo": False)."""
        return [b for b in self.default_benchmarks if b.get("demo", True)]

    @property
    def demo_players(self) -> list[str]:
        return list(getattr(self.module, "DEMO_PLAYERS", None) or self.builtins)

    @cached_property
    def metrics_type(self) -> type:
        return _resolve(self.metrics)

    @cached_property
    def entry_values(self) -> Callable[[Mapping[str, Any], str], list[EntryValues]]:
        return _resolve(self.entries)

    @cached_property
    def game_view(self) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
        return _resolve(self.game) if self.game else None

    @cached_property
    def regrade_outcome(self) -> Callable[..., Any] | None:
        return _resolve(self.regrade) if self.regrade else None

    def check(self) -> list[str]:
        """Import every part and report what is missing (empty: the family is complete)."""
        problems = []
        try:
            module = self.module
        except Exception as exc:  # noqa: BLE001 - reported, whatever the import raised
            return [f"family {self.slug!r}: package {self.package!r} does not import: {exc!r}"]
        for attr in ("EVALUATOR", "BUILTINS", "DEFAULT_BENCHMARKS"):
            if not hasattr(module, attr):
                problems.append(f"family {self.slug!r}: {self.package} has no {attr}")
        for name in ("metrics", "entries", "regrade", "game", "web"):
            ref = getattr(self, name)
            if ref:
                try:
                    _resolve(ref)
                except Exception as exc:  # noqa: BLE001
                    problems.append(
                        f"family {self.slug!r}: {name} {ref!r} does not resolve: {exc!r}"
                    )
        return problems


HIPHO = FamilySpec(
    slug="hipho",
    label="HiPhO",
    package="evaluators.hipho",
    metrics="evaluators.hipho.metrics:HiphoMetrics",
    entries="evaluators.hipho.entries:entry_values",
    web="hipho_exams.urls",
    page="hipho",
    score_key="group",
    regrade="evaluators.hipho.evaluator:regrade_outcome",
    description="physics olympiad exams: answer- and step-level grading, medals",
)
HANABI = FamilySpec(
    slug="hanabi",
    label="Hanabi",
    package="evaluators.hanabi",
    metrics="evaluators.hanabi.metrics:HanabiMetrics",
    entries="evaluators.hanabi.entries:entry_values",
    web="hanabi_games.urls",
    page="hanabi",
    viewers=(Viewer("replay", "replay"),),
    game="evaluators.hanabi.replay:game_frames",
    description="the cooperative card game, self-play and cross-play",
)
CHESS = FamilySpec(
    slug="chess",
    label="Chess",
    package="evaluators.chess",
    metrics="evaluators.chess.metrics:ChessMetrics",
    entries="evaluators.chess.entries:entry_values",
    web="chess_positions.urls",
    page="chess",
    viewers=(Viewer("position", "position"),),
    game="evaluators.chess.board:game_positions",
    description="move tasks, puzzles and games scored with Stockfish",
)

# slug -> spec, in nav and overview order. Add a family with one line here.
FAMILIES: dict[str, FamilySpec] = {spec.slug: spec for spec in (HIPHO, HANABI, CHESS)}


def register(spec: FamilySpec) -> FamilySpec:
    """Add a family declared outside this file. Registering the same spec again is a no-op;
    another spec under a taken slug is an error."""
    if not isinstance(spec, FamilySpec):
        raise FamilySpecError(f"not a FamilySpec: {spec!r}")
    known = FAMILIES.get(spec.slug)
    if known is not None and known is not spec:
        if (known.package, known.web) != (spec.package, spec.web):
            raise FamilySpecError(
                f"family slug {spec.slug!r} is already registered by {known.package}"
            )
        return known
    FAMILIES[spec.slug] = spec
    return spec


def register_modules(modules: Iterable[str]) -> list[FamilySpec]:
    """Import each module and register its ``FAMILY`` (a FamilySpec) or ``FAMILIES`` (several)."""
    added = []
    for name in modules:
        name = name.strip()
        if not name:
            continue
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            raise FamilySpecError(f"extra family module {name!r} does not import: {exc}") from exc
        specs = getattr(module, "FAMILIES", None) or [getattr(module, "FAMILY", None)]
        if not specs or specs == [None]:
            raise FamilySpecError(
                f"extra family module {name!r} defines neither FAMILY nor FAMILIES"
            )
        added += [register(spec) for spec in specs]
    return added


def family_slugs() -> tuple[str, ...]:
    return tuple(FAMILIES)


def get_spec(family: str) -> FamilySpec:
    try:
        return FAMILIES[family]
    except KeyError:
        raise UnknownFamilyError(
            f"unknown benchmark family {family!r}; registered: {', '.join(FAMILIES)}"
        ) from None


def get_family(family: str) -> FamilyEvaluator:
    """The family's evaluator (evaluators.base.FamilyEvaluator)."""
    return get_spec(family).evaluator


def family_module(family: str) -> ModuleType:
    return get_spec(family).module


def family_builtins(family: str) -> dict[str, str]:
    """Built-in players (name -> display name) that can play this family."""
    return get_spec(family).builtins
