"""The family registry at start: families named in settings.PODIUM_EXTRA_FAMILIES are registered
when the catalog app is ready, and system checks make an incomplete family, or a stored benchmark
or leaderboard row of an unregistered family, an error (never a silent empty column).

``manage.py check`` (and runserver, migrate) run the registry check; the database check runs
with ``check --database default`` and as part of ``migrate`` (every start of the service runs
it), since checks do not otherwise query the database."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register
from django.urls import NoReverseMatch, reverse

from evaluators.registry import FAMILIES, FamilySpecError, register_modules


def evaluators_configure() -> None:
    """Hand the pure packages their configuration from settings (evaluators.config)."""
    from evaluators.config import EvaluatorConfig, configure

    configure(
        EvaluatorConfig(
            shared_data=settings.PODIUM_SHARED_DATA,
            stockfish=settings.PODIUM_STOCKFISH,
            chess_cache_url=settings.PODIUM_CHESS_CACHE_URL,
            cache_prefix=settings.CACHES["default"].get("KEY_PREFIX", "podium"),
        )
    )


def families_load_extra() -> None:
    """Register the families the settings name; a module that does not import stops the start."""
    from django.core.exceptions import ImproperlyConfigured

    try:
        register_modules(settings.PODIUM_EXTRA_FAMILIES)
    except FamilySpecError as exc:
        raise ImproperlyConfigured(f"PODIUM_EXTRA_FAMILIES: {exc}") from exc


@register("families")
def families_complete(app_configs=None, **kwargs) -> list[Error]:
    """Every registered family imports, has what the platform reads, and its page exists."""
    errors = [
        Error(problem, id="podium.E010") for spec in FAMILIES.values() for problem in spec.check()
    ]
    for spec in FAMILIES.values():
        for name in [spec.page] * bool(spec.page):
            try:
                reverse(f"leaderboard:{name}")
            except NoReverseMatch:
                errors.append(
                    Error(
                        f"family {spec.slug!r}: page url name {name!r} is not served by {spec.web}",
                        id="podium.E011",
                    )
                )
    return errors


@register(Tags.database)
def families_stored_are_registered(app_configs=None, databases=None, **kwargs) -> list[Error]:
    """Benchmarks and leaderboard rows whose family no registered family declares."""
    if not databases or not _catalog_tables_exist(databases):
        return []
    return [
        Error(
            message,
            hint="register the family (evaluators/registry.py or PODIUM_EXTRA_FAMILIES) "
            "or delete its rows",
            id="podium.E012",
        )
        for message in unknown_stored_families()
    ]


def _catalog_tables_exist(databases) -> bool:
    """False before the first migration: `migrate` runs the database checks before it creates
    the tables, so on a fresh database there is nothing stored to check (and a query would stop
    the very migration that creates them)."""
    from django.db import connections

    from catalog.models import Benchmark
    from leaderboard.models import LeaderboardEntry

    needed = {Benchmark._meta.db_table, LeaderboardEntry._meta.db_table}
    return all(needed <= set(connections[alias].introspection.table_names()) for alias in databases)


def unknown_stored_families() -> list[str]:
    from catalog.models import Benchmark
    from leaderboard.models import LeaderboardEntry

    out = []
    for model, what in ((Benchmark, "benchmarks"), (LeaderboardEntry, "leaderboard entries")):
        for family in (
            model.objects.exclude(family__in=list(FAMILIES))
            .values_list("family", flat=True)
            .distinct()
        ):
            out.append(f"{what} of unregistered family {family!r}")
    return out
