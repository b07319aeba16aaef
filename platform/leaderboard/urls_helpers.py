"""Links to the viewers of one item, by family (FamilySpec.viewers)."""

from __future__ import annotations

from django.urls import reverse

from evaluators.registry import FAMILIES


def item_url(item_id: int, family: str) -> list[tuple[str, str]]:
    """(label, url) pairs: the transcript always, plus the family's own viewers."""
    links = [("transcript", reverse("leaderboard:item", args=[item_id]))]
    spec = FAMILIES.get(family)
    for viewer in spec.viewers if spec else ():
        links.append((viewer.label, reverse(f"leaderboard:{viewer.url_name}", args=[item_id])))
    return links
