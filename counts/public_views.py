"""Public chip counts: the page for phones (`/t/<id>/counts/`), the big screen
(`/t/<id>/counts/screen/`), the JSON the screen polls (`/t/<id>/counts.json`) and the API read
(`GET /api/tournaments/<id>/counts/`). Display names only (initials once names are withheld),
no contact data; counts are entered by staff only (counts/views.py)."""

from __future__ import annotations

import json
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFound
from counts.chart_views import leaders_figure, player_entry, stack_figure
from counts.selectors import public_counts
from tournament.api.permissions import IsFloorOrReadOnlyPublic
from tournament.public_selectors import initials, names_withheld
from tournament.screen_feeds import feed_body, feed_response, page_seconds
from tournament.views import get_tournament

PER_PAGE = 100
REFRESH_SECONDS = 20
PAGE_SECONDS = 12
PAGE_SECONDS_RANGE = (5, 120)


def _with_times(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for r in rows:
        r["at"] = parse_datetime(r["counted_at"]) if r["counted_at"] else None
    return rows


@require_safe
def counts_public(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    data = public_counts(tournament)
    pages = Paginator(data["players"], PER_PAGE)
    page = pages.get_page(request.GET.get("page"))
    average = dict(data["average"])  # the times as datetimes, for the template's filters
    for key in ("oldest", "newest"):
        average[key] = parse_datetime(average[key]) if average[key] else None
    withheld = names_withheld(status=tournament.status, starts_at=tournament.starts_at)
    player = None
    if request.GET.get("player"):  # one player's chart, from the list (404: no such player)
        try:
            entry = player_entry(tournament, request.GET["player"])
        except NotFound as exc:
            return render(request, "refused.html", {"message": str(exc)}, status=404)
        name = initials(entry.player.display_name) if withheld else entry.player.display_name
        player = {"entry": entry, **stack_figure(tournament, entry, name=name)}
    return render(
        request,
        "counts/public.html",
        {
            "tournament": tournament,
            "data": data,
            "average": average,
            "leaders": _with_times(data["leaders"]),
            "page": page,
            "rows": _with_times(list(page.object_list)),
            "graph": leaders_figure(tournament, withheld=withheld),
            "player": player,
        },
    )


def _body_and_etag(request: HttpRequest, pk: int) -> tuple[bytes, str]:
    # The time of the read changes every request: the ETag is over what the screen shows.
    return feed_body(public_counts(get_tournament(pk)), not_in_etag=("as_of", "version"))


def _page_seconds(request: HttpRequest) -> int:
    return page_seconds(request, PAGE_SECONDS, *PAGE_SECONDS_RANGE)


@require_safe
def counts_screen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    body, etag = _body_and_etag(request, pk)
    config = {
        "snapshot": json.loads(body),
        "etag": etag,
        "url": reverse("counts-json", args=[pk]),
        "ws": f"/ws/t/{pk}/",
        "refreshSeconds": REFRESH_SECONDS,
        "pageSeconds": _page_seconds(request),
        # The venue's clock, not the screen's: a screen set to another zone or to 12 hours
        # shows the same time as the public page.
        "timeZone": timezone.get_current_timezone_name(),
        "texts": {
            "page": _("Page %(k)s of %(n)s"),
            "leaders": _("Chip leaders"),
            "counts": _("Chip counts"),
            "average": _("Average %(chips)s"),
            "counted": _("counted %(k)s of %(n)s"),
            "left": _("%(n)s players left"),
            "leftOne": _("1 player left"),
            "bb": _("%(n)s BB"),
            "notCounted": _("no count yet"),
            "ago": _("%(m)s min ago"),
            "now": _("just now"),
            "table": _("Table %(t)s, seat %(s)s"),
            "empty": _("No counts yet."),
            "offline": _("reconnecting…"),
        },
    }
    graph = leaders_figure(
        tournament,
        withheld=names_withheld(status=tournament.status, starts_at=tournament.starts_at),
    )
    return render(
        request,
        "counts/screen.html",
        {"tournament": tournament, "config": config, "graph": graph},
    )


@require_safe
def counts_json(request: HttpRequest, pk: int) -> HttpResponse:
    body, etag = _body_and_etag(request, pk)
    return feed_response(request, body, etag)


class CountsRead(APIView):
    """The latest chip counts of the players left: public names, table and seat, chips, big
    blinds, when counted; leaders; the average and how much of it is counted."""

    permission_classes = [IsFloorOrReadOnlyPublic]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        return Response(public_counts(get_tournament(pk)))
