"""Pages that show what two apps know together: a tournament's results with its league points
(tournament/results.py, leagues/selectors.py), a person's history with the points of each
entry and season, and the public profile (docs/players.md). Public: public names only."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from core.csvexport import csv_response
from core.roles import floor_required
from leagues.charts import person_figures
from leagues.models import Season, SeasonTournament
from leagues.selectors import StandingRow, finish_points, season_standings
from tournament.models import Club, Player, Tournament
from tournament.people_selectors import (
    HistoryRow,
    history_totals,
    person_history,
    public_history,
)
from tournament.results import (
    EXPORT_COLUMNS,
    Results,
    export_json,
    export_rows,
    tournament_results,
)
from tournament.views import get_tournament


def _results(pk: int) -> tuple[Tournament, Results]:
    tournament = get_tournament(pk)
    results = tournament_results(tournament)
    points = finish_points(tournament)
    if points is not None:
        finishes = [
            dataclasses.replace(f, points=float(points[f.number]) if f.number in points else None)
            for f in results.finishes
        ]
        results = dataclasses.replace(results, finishes=finishes)
    return tournament, results


def results_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The results: printable, with the CSV and JSON downloads."""
    tournament, results = _results(pk)
    return render(
        request,
        "public/results.html",
        {
            "tournament": tournament,
            "results": results,
            "with_deals": any(f.deal_share is not None for f in results.finishes),
            "with_bounties": any(f.bounties for f in results.finishes),
            "with_seats": any(f.won_seat for f in results.finishes),
            "with_points": any(f.points is not None for f in results.finishes),
        },
    )


def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, results = _results(pk)
    return csv_response(
        f"results-{tournament.pk}.csv", EXPORT_COLUMNS, export_rows(tournament, results)
    )


def results_json(request: HttpRequest, pk: int) -> JsonResponse:
    tournament, results = _results(pk)
    return JsonResponse(export_json(tournament, results))


def _with_points(rows: list[HistoryRow]) -> tuple[list[HistoryRow], list[Season]]:
    """Each entry's league points and season (where its tournament counts for one), and the
    seasons in the order of their latest tournament. One points read per tournament."""
    tournament_ids = {row.entry.tournament_id for row in rows}
    links = {
        link.tournament_id: link.season
        for link in SeasonTournament.objects.filter(
            tournament_id__in=tournament_ids
        ).select_related("season__league")
    }
    points: dict[int, dict[int, Decimal] | None] = {}
    out, seasons = [], []
    for row in rows:
        t = row.entry.tournament
        season = links.get(t.pk)
        if season is None:
            out.append(row)
            continue
        if t.pk not in points:
            points[t.pk] = finish_points(t)
        mine = (points[t.pk] or {}).get(row.entry.number)
        out.append(
            dataclasses.replace(
                row, points=float(mine) if mine is not None else None, season=season
            )
        )
        if season not in seasons:
            seasons.append(season)
    return out, seasons


def _season_rows(player: Player, seasons: list[Season]) -> list[tuple[Season, StandingRow]]:
    """The person's line in the standings of each season (rank, points, played)."""
    found = []
    for season in seasons:
        row = next((r for r in season_standings(season).rows if r.player_id == player.pk), None)
        if row is not None:
            found.append((season, row))
    return found


@floor_required
def player_history(request: HttpRequest, player_id: int) -> HttpResponse:
    """A person's entries across tournaments for staff: date, tournament, place, prize, deal
    share, bounties and league points, the seasons' standings and the totals."""
    player = get_object_or_404(Player, pk=player_id)
    rows, seasons = _with_points(person_history(player))
    return render(
        request,
        "tournament/player_history.html",
        {
            "player": player,
            "rows": rows,
            "totals": history_totals(rows),
            "seasons": _season_rows(player, seasons),
            "with_deals": any(r.deal_share is not None for r in rows),
            "with_bounties": any(r.entry.bounties_won for r in rows),
            "with_points": any(r.season is not None for r in rows),
        },
    )


def player_public(request: HttpRequest, player_id: int) -> HttpResponse:
    """The public profile, when the club shows them (Club.public_profiles): the display name
    and the public results. Never the full name, contact data, membership number or year of
    birth. 404 when the club does not show profiles."""
    if not Club.current().public_profiles:
        raise Http404
    player = get_object_or_404(Player, pk=player_id)
    rows, _seasons = _with_points(public_history(player))
    return render(
        request,
        "public/player.html",
        {
            "display_name": player.display_name,
            "charts": person_figures(player, public=True),
            "rows": rows,
            "with_points": any(r.points is not None for r in rows),
        },
    )
