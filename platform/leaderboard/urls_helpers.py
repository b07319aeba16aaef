"""Links to the viewers of one item, by family (FamilySpec.viewers)."""

from __future__ import annotations

from evaluators.registry import FAMILIES
from leaderboard.pages import id_url


def item_url(item_id: int, family: str) -> list[tuple[str, str]]:
    """(label, url) pairs: the transcript always, plus the family's own viewers."""
    # a run page links every item it lists: cached URL patterns, not a reverse() per link
    links = [("transcript", id_url("leaderboard:item", item_id))]
    spec = FAMILIES.get(family)
    for viewer in spec.viewers if spec else ():
        links.append((viewer.label, id_url(f"leaderboard:{viewer.url_name}", item_id)))
    return links
