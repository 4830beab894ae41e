"""The night's story as images: one SVG per chart (tournament/charts.py), public like the
tournament's page (counts and amounts only, no names)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from core.charts import svg_response
from core.inputs import whole_number_or_none
from tournament.charts import STORY_KINDS, story_svg
from tournament.views import get_tournament

# `?w=`: a narrower picture for a phone (its type is then larger against the chart); the
# height follows at half the width, and 320 at least (a phone's chart is not a strip).
NARROWEST, WIDEST = 320, 1600


@require_GET
def story_chart(request: HttpRequest, pk: int, chart: str) -> HttpResponse:
    """`/t/<id>/story/<chart>.svg` for chart in field, entries, prizes; `?dark=1` for a dark
    page, `?w=400` for another width. An unknown chart or tournament is 404."""
    if chart not in STORY_KINDS:
        raise Http404
    tournament = get_tournament(pk)
    width = min(max(whole_number_or_none(request.GET.get("w", "")) or 800, NARROWEST), WIDEST)
    svg = story_svg(
        tournament,
        chart,
        dark=request.GET.get("dark") == "1",
        width=width,
        height=max(width // 2, 320),
    )
    return svg_response(request, svg)
