"""Links to players' public profiles (docs/players.md): only when the club shows profiles, and
only for names a public page shows in full (initials stay unlinked: an old result names nobody)."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.models import Club, Player

register = template.Library()


@register.simple_tag
def profile_links(standings: Any) -> frozenset[int]:
    """The ids of the players in `standings` (rows with `player_id` and the `name` shown) whose
    name may link to their public profile. One query; none when profiles are off."""
    rows = getattr(standings, "rows", None) or []
    if not rows or not Club.current().public_profiles:
        return frozenset()
    display = dict(
        Player.objects.filter(pk__in=[r.player_id for r in rows]).values_list("pk", "display_name")
    )
    return frozenset(r.player_id for r in rows if display.get(r.player_id) == r.name)
