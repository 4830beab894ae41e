"""Reads: a season's scoring, its standings and a tournament's league points.

Standings are computed on every read from the finishes of the season's finished tournaments, so
a corrected result changes them at once. Each tournament's best results are kept in the process
under a digest of its finishes that is read on every call (one aggregate query): only a
tournament whose finishes changed is read and scored again (one query over its entries). A player's result in a tournament is their best finish there (a re-entry is a finish
of its own; the better one counts). The field size `n` is the entries counted (re-entries
count), as for places and prizes.
"""

from __future__ import annotations

import json
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, Max, Sum

from leagues.domain.formula import Formula, FormulaError, formula_parse
from leagues.domain.points import (
    PlacePoints,
    Points,
    Result,
    Standing,
    dpsb_points,
    formula_points,
    shared_finish_points,
    standings,
    table_from_json,
)
from leagues.models import Scoring, Season, SeasonTournament
from tournament.models import Entry, EntryStatus, Player, Status, Tournament
from tournament.public_selectors import initials, names_withheld

# The (n, p) pairs the season page previews a scoring with.
PREVIEW = ((9, 1), (10, 1), (10, 3), (30, 1), (30, 5), (100, 1), (100, 9), (200, 20))


def season_formula(season: Season) -> Formula:
    return formula_parse(season.formula)


def place_points_of(
    season: Season, *, buy_in: int, bounty: int, bounties_won: list[int]
) -> PlacePoints:
    """Points by (n, place, finish index) under the season's scoring. Money in cents."""
    if season.scoring == Scoring.FORMULA:
        per_head = bounty or 0
        ks = [won / per_head if per_head else 0.0 for won in bounties_won]
        return formula_points(season_formula(season), buy_in=buy_in / 100, bounties=ks)
    if season.scoring == Scoring.TABLE:
        table = table_from_json(season.table)
        return lambda n, p, i: table.points(n, p)
    return lambda n, p, i: dpsb_points(n, p)


def preview(
    season: Season, pairs: tuple[tuple[int, int], ...] = PREVIEW
) -> list[tuple[int, int, int]]:
    """Points (hundredths) for a few (n, p), with no buy-in and no bounties."""
    points = place_points_of(season, buy_in=0, bounty=0, bounties_won=[0])
    return [(n, p, points(n, p, 0)) for n, p in pairs]


@dataclass(frozen=True)
class SeasonTournamentRow:
    tournament: Tournament
    counted: bool  # finished: its finishes count


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player_id: int
    name: str  # the display name (console) or public name (public page)
    full_name: str
    # points in hundredths (leagues.domain.points.Points)
    total: Points
    participation: int
    played: int
    # per season tournament (in the order of `tournaments`): the result, or None (not played)
    cells: list[Result | None]
    struck: frozenset[int]  # tournaments whose result is outside the best N


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    tournaments: list[SeasonTournamentRow]
    rows: list[StandingRow]
    error: str = ""  # a formula that fails on a tournament's real values


def season_tournaments(season: Season) -> list[Tournament]:
    return list(
        Tournament.objects.filter(
            pk__in=SeasonTournament.objects.filter(season=season).values("tournament_id")
        ).order_by("starts_at", "pk")
    )


def _finishes(tournament_ids: list[int]) -> dict[int, list[tuple[int, int, int]]]:
    """(player, place, bounties won) of every finish of these tournaments, one query."""
    by_tournament: dict[int, list[tuple[int, int, int]]] = {t: [] for t in tournament_ids}
    rows = (
        Entry.objects.filter(tournament_id__in=tournament_ids, place__isnull=False)
        .exclude(status=EntryStatus.UNREGISTERED)
        .values_list("tournament_id", "player_id", "place", "bounties_won")
    )
    for tid, player, place, won in rows:
        by_tournament[tid].append((player, place or 0, won))
    return by_tournament


def tournament_points(
    season: Season, tournament: Tournament, finishes: list[tuple[int, int, int]]
) -> list[Points]:
    """The points (hundredths) of each finish (shared places share), in the order given."""
    points = place_points_of(
        season,
        buy_in=tournament.buy_in,
        bounty=tournament.bounty,
        bounties_won=[won for _player, _place, won in finishes],
    )
    return shared_finish_points(
        [place for _player, place, _won in finishes], tournament.entries_counted, points
    )


_NONE_STRUCK: frozenset[int] = frozenset()

# The best result of each player in each tournament, kept per process and reused while the
# tournament's finishes are unchanged: `_fingerprints` reads, in one aggregate query, a digest of
# every finish (entry, player, place, bounties), so any change of a result - through a service,
# the admin or SQL - gives a new key and the tournament is scored again on this very read.
_BEST: OrderedDict[tuple[Any, ...], dict[int, Result]] = OrderedDict()
_BEST_KEPT = 4000


def _fingerprints(tournament_ids: list[int]) -> dict[int, tuple[Any, ...]]:
    rows = (
        Entry.objects.filter(tournament_id__in=tournament_ids, place__isnull=False)
        .exclude(status=EntryStatus.UNREGISTERED)
        .values("tournament_id")
        .annotate(
            count=Count("id"),
            a=Sum(F("place") * F("id")),
            b=Sum(F("place") * F("player_id")),
            c=Sum(F("bounties_won") * F("id")),
            d=Sum(F("player_id") * F("id")),
            e=Max("id"),
        )
        .values_list("tournament_id", "count", "a", "b", "c", "d", "e")
    )
    return {row[0]: row[1:] for row in rows}


def _scoring_key(season: Season) -> tuple[Any, ...]:
    return (season.scoring, season.formula, json.dumps(season.table, sort_keys=True))


def _best_results(
    season: Season, tournament: Tournament, rows: list[tuple[int, int, int]]
) -> dict[int, Result]:
    """Each player's best finish in `tournament` (FormulaError when the formula fails)."""
    points = tournament_points(season, tournament, rows)
    best: dict[int, Result] = {}
    for (player, place, _won), pts in zip(rows, points, strict=True):
        mine = best.get(player)
        if mine is None or (pts, -place) > (mine.points, -mine.place):
            best[player] = Result(tournament.pk, place, pts)
    return best


def season_standings(season: Season, *, public: bool = False) -> SeasonStandings:
    """The standings of `season` (best N, participation points, shared ranks). With `public`,
    names follow the public pages' rule: initials once the player's latest tournament of the
    season withholds names (FLOOR_PUBLIC_RESULTS_DAYS)."""
    tournaments = season_tournaments(season)
    finished = [t for t in tournaments if t.status == Status.FINISHED]
    prints = _fingerprints([t.pk for t in finished])
    scoring = _scoring_key(season)
    keys = {
        t.pk: (scoring, t.pk, t.entries_counted, t.buy_in, t.bounty, prints.get(t.pk))
        for t in finished
    }
    stale = [t for t in finished if keys[t.pk] not in _BEST]
    finishes = _finishes([t.pk for t in stale]) if stale else {}
    by_player: dict[int, list[Result]] = defaultdict(list)
    latest: dict[int, Tournament] = {}
    error = ""
    for t in finished:
        best = _BEST.get(keys[t.pk])
        if best is None:
            try:
                best = _best_results(season, t, finishes[t.pk])
            except FormulaError as exc:
                error = formula_error_text(exc, tournament=t)
                best = {}
            else:
                _BEST[keys[t.pk]] = best
                while len(_BEST) > _BEST_KEPT:
                    _BEST.popitem(last=False)
        else:
            _BEST.move_to_end(keys[t.pk])
        for player, result in best.items():
            by_player[player].append(result)
            latest[player] = t
    names = {
        p["pk"]: p
        for p in Player.objects.filter(pk__in=list(by_player)).values("pk", "name", "display_name")
    }

    def shown(player: int) -> str:
        display = names[player]["display_name"]
        if public:
            t = latest[player]
            if names_withheld(status=t.status, starts_at=t.starts_at):
                return initials(display)
        return display

    order: Callable[[int], str] = lambda player: shown(player).casefold()  # noqa: E731
    ranked: list[Standing] = standings(
        by_player,
        best_n=season.best_n,
        participation=int(season.participation * 100),
        order=order,
    )
    column = {t.pk: i for i, t in enumerate(tournaments)}
    rows_out = []
    for s in ranked:
        cells: list[Result | None] = [None] * len(tournaments)
        for result in s.results:
            cells[column[result.tournament]] = result
        struck = (
            _NONE_STRUCK
            if all(s.counted)
            else frozenset(r.tournament for r, c in zip(s.results, s.counted, strict=True) if not c)
        )
        rows_out.append(
            StandingRow(
                rank=s.rank,
                player_id=s.player,
                name=shown(s.player),
                full_name="" if public else names[s.player]["name"],
                total=s.total,
                participation=s.participation,
                played=s.played,
                cells=cells,
                struck=struck,
            )
        )
    return SeasonStandings(
        season=season,
        tournaments=[SeasonTournamentRow(t, t.status == Status.FINISHED) for t in tournaments],
        rows=rows_out,
        error=error,
    )


def finish_points(tournament: Tournament) -> dict[int, Decimal] | None:
    """League points (two decimals) by entry number for a tournament's results page; None when the tournament
    counts for no season. A hook for tournament/results.py's `points` column: the tournament
    app does not import leagues, so a caller above both fills it in (docs/leagues.md)."""
    link = SeasonTournament.objects.select_related("season").filter(tournament=tournament).first()
    if link is None:
        return None
    rows = list(
        Entry.objects.filter(tournament=tournament, place__isnull=False)
        .exclude(status=EntryStatus.UNREGISTERED)
        .values_list("number", "player_id", "place", "bounties_won")
    )
    points = tournament_points(link.season, tournament, [(p, pl or 0, w) for _n, p, pl, w in rows])
    return {number: as_points(pts) for (number, *_rest), pts in zip(rows, points, strict=True)}


def as_points(value: Points) -> Decimal:
    """Hundredths as points, two decimals (half up)."""
    from leagues.templatetags.leagues import points_decimal

    return points_decimal(value)


def seasons_of_league(league: Any) -> list[Season]:
    return list(league.seasons.annotate(tournament_count=Count("links")).order_by("-created_at"))


def formula_error_text(exc: FormulaError, *, tournament: Tournament | None = None) -> str:
    """The refusal in the reader's language (leagues/words.py)."""
    from leagues.words import formula_error

    return formula_error(exc, tournament=tournament)
