"""Links to the viewers of one item, by family."""

from __future__ import annotations

from django.urls import reverse


def item_url(item_id: int, family: str) -> list[tuple[str, str]]:
    """(label, url) pairs: the transcript always, plus the family's own viewer."""
    links = [("transcript", reverse("leaderboard:item", args=[item_id]))]
    if family == "hanabi":
        links.append(("replay", reverse("leaderboard:replay", args=[item_id])))
    elif family == "chess":
        links.append(("position", reverse("leaderboard:position", args=[item_id])))
    return links
