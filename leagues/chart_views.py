"""The league's charts as their own SVG documents (core.charts.svg_response: image/svg+xml, its
own policy, an ETag): the season's race (public leagues only, public names) and a person's
history (the public profile's results when the club shows profiles; every result for staff).
The pages show them with templates/charts/figure.html (leagues/charts.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from core.charts import svg_response
from core.roles import floor_required
from leagues.charts import KINDS, person_svg, race_svg
from leagues.selectors import person_nights
from leagues.views import _public_season
from tournament.models import Club, Player


@require_safe
def season_race_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """`/seasons/<id>/race.svg` (`?dark=1`: the dark style of the public pages and screens;
    `?screen=1`: the big screen's size)."""
    season = _public_season(pk)
    return svg_response(
        request, race_svg(season, dark=_dark(request), screen=request.GET.get("screen") == "1")
    )


def _dark(request: HttpRequest) -> bool:
    return request.GET.get("dark") == "1"


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise Http404
    return kind


@require_safe
def player_chart_svg(request: HttpRequest, player_id: int, kind: str) -> HttpResponse:
    """`/players/<id>/<kind>.svg`: the public profile's chart; 404 where the profile is."""
    kind = _kind(kind)
    if not Club.current().public_profiles:
        raise Http404
    player = get_object_or_404(Player, pk=player_id)
    history = person_nights(player, public=True)
    return svg_response(request, person_svg(history, kind, dark=_dark(request)))


@floor_required
@require_safe
def console_player_chart_svg(request: HttpRequest, player_id: int, kind: str) -> HttpResponse:
    """`/console/players/<id>/<kind>.svg`: every result of the person, for staff."""
    kind = _kind(kind)
    player = get_object_or_404(Player, pk=player_id)
    history = person_nights(player, public=False)
    return svg_response(request, person_svg(history, kind, dark=_dark(request)))
