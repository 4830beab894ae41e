"""The season's standings on a big screen (`/seasons/<id>/screen/`) and the JSON it reads
(`/seasons/<id>/standings.json`). Public leagues only, like the public standings page.

The screen polls the JSON every `REFRESH_SECONDS` with the ETag it last saw; an unchanged
season answers 304 with no body (docs/leagues.md)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from leagues.charts import race_figure
from leagues.models import Season
from leagues.selectors import season_standings, standings_screen
from leagues.views import _public_season
from tournament.screen_feeds import feed_body, feed_response, page_seconds

REFRESH_SECONDS = 30
PAGE_SECONDS = 12  # how long a page of the standings stays (?seconds=5..120)
PAGE_SECONDS_RANGE = (5, 120)


def _page_seconds(request: HttpRequest) -> int:
    return page_seconds(request, PAGE_SECONDS, *PAGE_SECONDS_RANGE)


def _top(request: HttpRequest) -> int | None:
    """?top=N: only the first N places (1..1000); none: every player."""
    try:
        top = int(request.GET.get("top", ""))
    except ValueError:
        return None
    return min(max(top, 1), 1000)


def _body_and_etag(season: Season) -> tuple[bytes, str]:
    return feed_body(standings_screen(season))


def screen_config(request: HttpRequest, season: Season) -> dict[str, Any]:
    """What screen.js needs: the first standings, where to poll, the words."""
    data, etag = _body_and_etag(season)
    return {
        "snapshot": json.loads(data),
        "etag": etag,
        "url": reverse("season-standings-json", args=[season.pk]),
        "refreshSeconds": REFRESH_SECONDS,
        "pageSeconds": _page_seconds(request),
        "top": _top(request),
        "texts": {
            "page": _("Page %(k)s of %(n)s"),
            "after": _("After %(finished)s of %(total)s tournaments"),
            "bestN": _("best %(n)s results count"),
            "gold": _("Gold"),
            "silver": _("Silver"),
            "bronze": _("Bronze"),
            "offline": _("reconnecting…"),
        },
    }


@require_safe
def season_screen(request: HttpRequest, pk: int) -> HttpResponse:
    season = _public_season(pk)
    race = race_figure(season, season_standings(season, public=True), screen=True)
    return render(
        request,
        "leagues/screen.html",
        {
            "season": season,
            "league": season.league,
            "config": screen_config(request, season),
            "race": None if race["empty"] else race,
        },
    )


@require_safe
def season_standings_json(request: HttpRequest, pk: int) -> HttpResponse:
    season = _public_season(pk)
    data, etag = _body_and_etag(season)
    return feed_response(request, data, etag)
