"""The person's charts on pages of apps that do not import the leagues (the console's player
page, tournament/player_views.py): `{% load league_charts %}{% person_charts player as charts %}`
(leagues/charts.py person_figures; every result: staff pages only)."""

from __future__ import annotations

from typing import Any

from django import template

from leagues.charts import person_figures

register = template.Library()


@register.simple_tag
def person_charts(player: Any) -> list[dict[str, Any]]:
    return person_figures(player, public=False)
