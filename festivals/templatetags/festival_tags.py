"""For other apps' pages: a tournament's part in an event with flights (the console's header)
and whether bag and tag is under way (the dealer tablet's button). Template tags, so the apps
below never import this app (pyproject.toml, import-linter)."""

from __future__ import annotations

from typing import Any

from django import template

from festivals.models import Bagging
from festivals.selectors import festival_of

register = template.Library()


@register.simple_tag
def festival_part(tournament: Any) -> dict[str, Any] | None:
    return festival_of(tournament)


@register.simple_tag
def bagging_under_way(tournament: Any) -> bool:
    """Read once for the tournament object: the tablets' views of the tables a change touched
    share one (tables/live.py) and are rendered in each language."""
    known = vars(tournament).get("_bagging_under_way")
    if known is None:
        known = Bagging.objects.filter(tournament_id=tournament.pk, closed_at__isnull=True).exists()
        vars(tournament)["_bagging_under_way"] = known
    return bool(known)
