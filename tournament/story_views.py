"""The night's story as images: one SVG per chart (tournament/charts.py), public like the
tournament's page (counts and amounts only, no names)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from core.charts import svg_response
from tournament.charts import STORY_KINDS, story_svg
from tournament.views import get_tournament


@require_GET
def story_chart(request: HttpRequest, pk: int, chart: str) -> HttpResponse:
    """`/t/<id>/story/<chart>.svg` for chart in field, entries, prizes; `?dark=1` for a dark
    page. An unknown chart or tournament is 404."""
    if chart not in STORY_KINDS:
        raise Http404
    tournament = get_tournament(pk)
    return svg_response(request, story_svg(tournament, chart, dark=request.GET.get("dark") == "1"))
