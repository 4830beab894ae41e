"""League pages: the list, a league, a season (settings, tournaments, standings), the CSV and the
public standings."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.csvexport import csv_response
from core.errors import FloorError
from core.roles import floor_required, is_director
from leagues import services as svc
from leagues.charts import race_figure
from leagues.domain.formula import FormulaError
from leagues.domain.points import PointsError, table_from_json
from leagues.forms import LeagueForm, SeasonForm, SeasonNewForm
from leagues.models import League, Season, SeasonTournament
from leagues.selectors import preview, season_standings, seasons_of_league
from leagues.templatetags.leagues import points_text
from leagues.words import formula_error
from tournament.models import Tournament


def _director_or_403(request: HttpRequest) -> None:
    if not is_director(request.user):
        raise PermissionDenied


@floor_required
def leagues_list(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST":
        _director_or_403(request)
        if form.is_valid():
            try:
                league = svc.league_create(**form.cleaned_data)
            except FloorError as exc:
                form.add_error(exc.field, str(exc))
            else:
                messages.success(request, _("League created."))
                return redirect("league", pk=league.pk)
    leagues = League.objects.all()
    refused = 400 if request.method == "POST" else 200  # a refusal stays on the page
    return render(
        request, "leagues/leagues.html", {"leagues": leagues, "form": form}, status=refused
    )


@floor_required
def league_page(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    form = LeagueForm(initial={"name": league.name, "public": league.public})
    season_form = SeasonNewForm()
    if request.method == "POST":
        _director_or_403(request)
        if request.POST.get("action") == "season":
            season_form = SeasonNewForm(request.POST)
            if season_form.is_valid():
                try:
                    season = svc.season_create(league=league, **season_form.cleaned_data)
                except FloorError as exc:
                    season_form.add_error(exc.field, str(exc))
                else:
                    messages.success(request, _("Season created: choose its scoring."))
                    return redirect("season", pk=season.pk)
        else:
            form = LeagueForm(request.POST)
            if form.is_valid():
                try:
                    svc.league_update(league=league, **form.cleaned_data)
                except FloorError as exc:
                    form.add_error(exc.field, str(exc))
                else:
                    messages.success(request, _("League saved."))
                    return redirect("league", pk=league.pk)
    return render(
        request,
        "leagues/league.html",
        {
            "league": league,
            "seasons": seasons_of_league(league),
            "form": form,
            "season_form": season_form,
        },
        status=400 if request.method == "POST" else 200,  # a refusal stays on the page
    )


def _season(pk: int) -> Season:
    try:
        return Season.objects.select_related("league").get(pk=pk)
    except Season.DoesNotExist as exc:
        raise Http404(_("No such season.")) from exc


def _settings_initial(season: Season) -> dict[str, Any]:
    try:
        table_text = table_from_json(season.table).as_text() if season.table else ""
    except (PointsError, KeyError, TypeError, ValueError):
        table_text = ""
    return {
        "name": season.name,
        "scoring": season.scoring,
        "formula": season.formula,
        "table_text": table_text,
        "best_n": season.best_n,
        "participation": season.participation,
    }


def _preview_of(season: Season) -> tuple[list[Any], str]:
    try:
        return preview(season), ""
    except FormulaError as exc:
        return [], formula_error(exc)
    except (PointsError, KeyError, TypeError, ValueError):
        return [], _("The points table cannot be read.")


@floor_required
def season_page(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    form = SeasonForm(initial=_settings_initial(season))
    shown = season  # what the preview shows: the saved scoring, or the one being tried
    add_error = ""
    if request.method == "POST":
        _director_or_403(request)
        action = request.POST.get("action", "")
        if action in ("settings", "preview"):
            form = SeasonForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                values = {
                    "name": data["name"],
                    "scoring": data["scoring"],
                    "formula": data["formula"],
                    "table_text": data["table_text"],
                    "best_n": data["best_n"],
                    "participation": data["participation"] or 0,
                }
                if action == "preview":
                    formula, table, bonus = svc.scoring_check(
                        **{k: v for k, v in values.items() if k != "name"}
                    )
                    shown = Season(
                        league=season.league,
                        scoring=data["scoring"],
                        formula=formula,
                        table=table,
                        best_n=data["best_n"],
                        participation=bonus,
                    )
                else:
                    try:
                        svc.season_update(season=season, **values)
                    except FloorError as exc:
                        form.add_error(exc.field, str(exc))
                    else:
                        messages.success(request, _("Scoring saved: the standings follow it."))
                        return redirect("season", pk=season.pk)
        elif action in ("add", "remove"):
            chosen = _int(request.POST.get("tournament"))
            tournament = None if chosen is None else Tournament.objects.filter(pk=chosen).first()
            if tournament is None:
                add_error = _("Choose a tournament.")
            else:
                try:
                    if action == "add":
                        svc.season_tournament_add(season=season, tournament=tournament)
                    else:
                        svc.season_tournament_remove(season=season, tournament=tournament)
                except FloorError as exc:
                    add_error = str(exc)
                else:
                    return redirect("season", pk=season.pk)
    points_preview, preview_error = _preview_of(shown)
    free = Tournament.objects.exclude(
        pk__in=SeasonTournament.objects.values("tournament_id")
    ).order_by("-starts_at")[:200]
    status = 400 if (form.is_bound and form.errors) or add_error else 200
    return render(
        request,
        "leagues/season.html",
        {
            "season": season,
            "league": season.league,
            "form": form,
            "preview": points_preview,
            "preview_error": preview_error,
            "standings": season_standings(season),
            "free_tournaments": free,
            "add_error": add_error,
        },
        status=status,
    )


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _csv(standings: Any, filename: str) -> HttpResponse:
    head = ["rank", "name", "total", "played", "participation"] + [
        f"{r.tournament.starts_at.date().isoformat()} {r.tournament.name}"
        for r in standings.tournaments
    ]
    rows = []
    for row in standings.rows:
        cells = []
        for cell in row.cells:
            if cell is None:
                cells.append("")
            else:
                struck = cell.tournament in row.struck
                cells.append(_decimal(cell.points) + (" (not counted)" if struck else ""))
        rows.append(
            [
                row.rank,
                row.name,
                _decimal(row.total),
                row.played,
                _decimal(row.participation),
                *cells,
            ]
        )
    return csv_response(filename, head, rows)


def _decimal(x: Any) -> str:
    return points_text(x)


@floor_required
def season_csv(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    return _csv(season_standings(season), f"standings-{season.pk}.csv")


def _public_season(pk: int) -> Season:
    season = _season(pk)
    if not season.league.public:
        raise Http404(_("No such season."))
    return season


def season_public(request: HttpRequest, pk: int) -> HttpResponse:
    season = _public_season(pk)
    standings = season_standings(season, public=True)
    return render(
        request,
        "leagues/public_standings.html",
        {
            "season": season,
            "league": season.league,
            "standings": standings,
            "race": race_figure(season, standings),
        },
    )


def season_public_csv(request: HttpRequest, pk: int) -> HttpResponse:
    season = _public_season(pk)
    return _csv(season_standings(season, public=True), f"standings-{season.pk}.csv")
