"""Template context every page gets: the families of the registry, for the nav."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse

from evaluators.registry import FAMILIES


def families(request) -> dict[str, list[tuple[str, str]]]:
    links = []
    for spec in FAMILIES.values():
        if not spec.page:
            continue
        try:
            links.append((spec.label, reverse(f"leaderboard:{spec.page}")))
        except NoReverseMatch:  # the system check reports a family whose page does not exist
            continue
    return {"nav_families": links}
