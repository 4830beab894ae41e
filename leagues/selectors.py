"""Reads: a season's scoring, its standings and a tournament's league points.

Standings are computed on every read from the finishes of the season's finished tournaments, so
a corrected result changes them at once. Each tournament's best results are kept in the process
under a digest of its finishes that is read on every call (with the season's tournaments, in
one query): only a tournament whose finishes changed is read and scored again (one query over
its entries), and only its players' lines of the season are computed again (`_MEMO`).

A player's result in a tournament is their best finish there (a re-entry is a finish of its own;
the better one counts). The field size `n` is the entries counted (re-entries count), as for
places and prizes. A formula that reads a night's further figures (`h`, `players`, the money:
formula.EXTRA) gets them from two more queries per read that scores tournaments again, for all
of them at once (`_night_more`; docs/leagues.md, "Formula": the figures of the night).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, F, Sum
from django.utils import timezone

from leagues.domain.formula import EXTRA, Formula, FormulaError, example_figures, formula_parse
from leagues.domain.points import (
    NightFinish,
    PlacePoints,
    Points,
    PointsError,
    Result,
    Tally,
    dpsb_points,
    formula_points,
    night_figures,
    shared_finish_points,
    shared_ranks,
    table_from_json,
    tally,
    to_points,
)
from leagues.domain.race import (
    TOP,
    Finish,
    Night,
    PersonHistory,
    Race,
    Racer,
    person_history,
    race,
)
from leagues.models import Scoring, Season, SeasonTournament
from leagues.templatetags.leagues import points_decimal, points_text
from leagues.words import formula_error
from tournament import people_selectors
from tournament.domain.collation import name_key
from tournament.models import Entry, EntryStatus, Player, Purchase, Status, Tournament
from tournament.public_selectors import initials, names_withheld
from tournament.selectors import tournament_numbers
from tournament.templatetags.floor import when
from tournament.validation import SettingsBroken

# The (n, p) pairs the season page previews a scoring with.
PREVIEW = ((9, 1), (10, 1), (10, 3), (30, 1), (30, 5), (100, 1), (100, 9), (200, 20))


def season_formula(season: Season) -> Formula:
    return formula_parse(season.formula)


def place_points_of(
    season: Season,
    *,
    buy_in: int,
    bounty: int,
    bounties_won: list[int],
    more: list[dict[str, float]] | None = None,
) -> PlacePoints:
    """Points by (n, place, finish index) under the season's scoring. Money in cents; `more`:
    each finish's further figures (`night_figures`), for a formula that reads them."""
    if season.scoring == Scoring.FORMULA:
        per_head = bounty or 0
        ks = [won / per_head if per_head else 0.0 for won in bounties_won]
        return formula_points(season_formula(season), buy_in=buy_in / 100, bounties=ks, more=more)
    if season.scoring == Scoring.TABLE:
        table = table_from_json(season.table)
        return lambda n, p, i: table.points(n, p)
    return lambda n, p, i: dpsb_points(n, p)


def preview(
    season: Season, pairs: tuple[tuple[int, int], ...] = PREVIEW
) -> list[tuple[int, int, int]]:
    """Points (hundredths) for a few (n, p), with no buy-in and no bounties (a formula over the
    night's figures: `example_figures` of such a night)."""
    if reads_night(season):
        formula = season_formula(season)
        return [
            (n, p, to_points(formula.points(n=n, p=p, more=example_figures(n, p, 0, 0))))
            for n, p in pairs
        ]
    points = place_points_of(season, buy_in=0, bounty=0, bounties_won=[0])
    return [(n, p, points(n, p, 0)) for n, p in pairs]


@dataclass(frozen=True)
class SeasonTournamentRow:
    tournament: Tournament
    counted: bool  # finished: its finishes count


class StandingRow(NamedTuple):
    """One line of the standings (a tuple: thousands are made per read)."""

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


# A finish as standings read it: player, place, bounties won (cents), prize (cents), in the
# money (a prize or a seat), hits.
FinishRow = tuple[int, int, int, int, bool, int]


def reads_night(season: Season) -> bool:
    """The season's formula reads a night's further figures (formula.EXTRA)."""
    if season.scoring != Scoring.FORMULA:
        return False
    try:
        return not season_formula(season).names.isdisjoint(EXTRA)
    except FormulaError:
        return False


def _finishes(tournament_ids: list[int]) -> dict[int, list[FinishRow]]:
    """Every finish of these tournaments (`FinishRow`), one query."""
    by_tournament: dict[int, list[FinishRow]] = {t: [] for t in tournament_ids}
    rows = (
        Entry.objects.filter(tournament_id__in=tournament_ids, place__isnull=False)
        .exclude(status=EntryStatus.UNREGISTERED)
        .values_list(
            "tournament_id", "player_id", "place", "bounties_won", "prize", "won_seat", "hits"
        )
    )
    for tid, player, place, won, prize, seat, hits in rows:
        by_tournament[tid].append((player, place or 0, won, prize, prize > 0 or seat, hits))
    return by_tournament


def _prize_pool(tournament: Tournament) -> int:
    """The tournament's prize pool in cents, from the counts on its row (an event's Day 2 adds
    its flights': one query)."""
    try:
        return tournament_numbers(tournament, fresh=False).prize_pool
    except SettingsBroken:
        return 0


def _night_more(
    tournaments: list[Tournament], finishes: dict[int, list[FinishRow]]
) -> dict[int, list[dict[str, float]]]:
    """Each finish's further figures (`night_figures`), for all `tournaments` at once: their
    purchases summed by tournament, player and kind in one query (refunds and unregistered
    entries left out); the prize pool from each tournament's row."""
    bought: dict[int, list[tuple[int, str, int, int]]] = {t.pk: [] for t in tournaments}
    rows = (
        Purchase.objects.filter(entry__tournament_id__in=list(bought), refunded=False)
        .exclude(entry__status=EntryStatus.UNREGISTERED)
        .values_list("entry__tournament_id", "entry__player_id", "kind")
        .annotate(many=Count("id"), cents=Sum(F("price") + F("fee")))
        .order_by()
    )
    for tid, player, kind, many, cents in rows:
        bought[tid].append((player, kind, many, cents or 0))
    return {
        t.pk: night_figures(
            [NightFinish(row[0], row[3], row[4], row[5]) for row in finishes[t.pk]],
            bought[t.pk],
            pool=_prize_pool(t),
        )
        for t in tournaments
    }


def tournament_points(
    season: Season,
    tournament: Tournament,
    finishes: list[FinishRow],
    more: list[dict[str, float]] | None = None,
) -> list[Points]:
    """The points (hundredths) of each finish (shared places share), in the order given;
    `more`: their further figures (`_night_more`) when the formula reads them."""
    points = place_points_of(
        season,
        buy_in=tournament.buy_in,
        bounty=tournament.bounty,
        bounties_won=[row[2] for row in finishes],
        more=more,
    )
    return shared_finish_points([row[1] for row in finishes], tournament.entries_counted, points)


_NONE_STRUCK: frozenset[int] = frozenset()

# The best result of each player in each tournament, kept per process and reused while the
# tournament's finishes are unchanged: `_season_tournaments_with_prints` reads with the
# tournaments, in one query, a digest of every finish (entry, player, place, bounties), so any change of a result - through a service,
# the admin or SQL - gives a new key and the tournament is scored again on this very read.
_BEST: OrderedDict[tuple[Any, ...], dict[int, Result]] = OrderedDict()
_BEST_KEPT = 4000


def _season_tournaments_with_prints(
    season: Season,
) -> tuple[list[Tournament], dict[int, tuple[Any, ...]]]:
    """`season_tournaments`, each with the digest of its finishes (tournament id -> digest; none
    for a tournament without finishes), in one statement: the digests are joined to the
    tournament rows."""
    quote = connection.ops.quote_name
    entries = quote(Entry._meta.db_table)
    links = (
        f"SELECT tournament_id FROM {quote(SeasonTournament._meta.db_table)} "  # noqa: S608
        "WHERE season_id = %s"
    )
    sql = (
        f"SELECT t.*, f.n AS print_n, f.a AS print_a, f.b AS print_b, f.c AS print_c, "  # noqa: S608
        "f.d AS print_d, f.e AS print_e, f.g AS print_g, f.h AS print_h, f.s AS print_s "
        f"FROM {quote(Tournament._meta.db_table)} t LEFT JOIN ("
        "SELECT tournament_id, COUNT(id) AS n, SUM(place * id) AS a, SUM(place * player_id) AS b, "
        "SUM(bounties_won * id) AS c, SUM(player_id * id) AS d, MAX(id) AS e, "
        "SUM(prize * id) AS g, SUM(hits * id) AS h, "
        "SUM(CASE WHEN won_seat THEN id ELSE 0 END) AS s "
        f"FROM {entries} WHERE tournament_id IN ({links}) AND place IS NOT NULL "
        "AND NOT (status = %s) GROUP BY tournament_id) f ON f.tournament_id = t.id "
        f"WHERE t.id IN ({links}) ORDER BY t.starts_at, t.id"
    )
    tournaments = list(
        Tournament.objects.raw(sql, [season.pk, EntryStatus.UNREGISTERED, season.pk])
    )
    prints: dict[int, tuple[Any, ...]] = {}
    for t in tournaments:
        digest = tuple(getattr(t, f"print_{x}") for x in "nabcdeghs")
        if digest[0] is not None:  # a tournament without finishes has no digest
            prints[t.pk] = digest
    return tournaments, prints


def _scoring_key(season: Season) -> tuple[Any, ...]:
    return (season.scoring, season.formula, json.dumps(season.table, sort_keys=True))


def _best_results(
    season: Season,
    tournament: Tournament,
    rows: list[FinishRow],
    more: list[dict[str, float]] | None = None,
) -> dict[int, Result]:
    """Each player's best finish in `tournament` (FormulaError when the formula fails)."""
    points = tournament_points(season, tournament, rows, more)
    best: dict[int, Result] = {}
    for (player, place, *_rest), pts in zip(rows, points, strict=True):
        mine = best.get(player)
        if mine is None or (pts, -place) > (mine.points, -mine.place):
            best[player] = Result(tournament.pk, place, pts)
    return best


def _tournament_key(t: Tournament) -> tuple[Any, ...]:
    """What of the tournament's row its points depend on: the field, the buy-in and bounty, the
    money in (the counts the database keeps on every purchase) and how the pool is made."""
    return (
        t.pk, t.entries_counted, t.buy_in, t.bounty, t.bounty_kind, t.paid_in, t.fees_in,
        t.bought_buyins, t.bought_reentries, t.bought_rebuys, t.bought_addons,
        t.withholding_bp, t.house_contribution, t.guarantee, t.satellite_seat_value,
    )  # fmt: skip


@dataclass(slots=True)
class _Line:
    """One player's season, kept between reads while none of their tournaments changed."""

    results: list[Result]  # in the order of the season's finished tournaments
    tally: Tally
    latest: int  # the player's latest finished tournament of the season
    cells: list[Result | None]  # per season tournament (the page's columns)
    struck: frozenset[int]


@dataclass(slots=True)
class _Memo:
    """A season's standings as last read: `setup` (scoring, best N, participation, the
    tournaments) must be equal for any of it to be reused; `keys` are the tournaments' keys the
    `best` results were scored under."""

    setup: tuple[Any, ...]
    keys: dict[int, tuple[Any, ...]]
    best: dict[int, dict[int, Result]]
    failed: dict[int, FormulaError]
    lines: dict[int, _Line]


# Per process: the seasons last read (a few, most recent last). A read after one tournament's
# finishes changed scores that tournament again and recomputes only its players' lines; the
# lock keeps two threads of one process from interleaving the update.
_MEMO: OrderedDict[int, _Memo] = OrderedDict()
_MEMO_KEPT = 64
_MEMO_LOCK = threading.Lock()


def standings_cache_clear() -> None:
    """Forget every kept result (benchmarks: a full compute)."""
    with _MEMO_LOCK:
        _MEMO.clear()
        _BEST.clear()


def _results_of(players: set[int], bests: list[dict[int, Result]]) -> dict[int, list[Result]]:
    """The results of `players` in the season's order (`bests`: each finished tournament's best
    results, in that order); a player without one has none. One pass over the results when
    that is shorter than a look-up per player and tournament (a full read: 10,000 results
    against 100,000 look-ups)."""
    if len(players) * len(bests) <= sum(len(best) for best in bests):
        return {p: [r for best in bests if (r := best.get(p)) is not None] for p in players}
    own: dict[int, list[Result]] = {p: [] for p in players}
    for best in bests:
        for player, result in best.items():
            if (mine := own.get(player)) is not None:
                mine.append(result)
    return own


def _line(
    results: list[Result],
    column: dict[int, int],
    *,
    best_n: int | None,
    participation: int,
) -> _Line | None:
    """A player's line from their results in the season's order (None: no results)."""
    if not results:
        return None
    counted = tally(results, best_n=best_n, participation=participation)
    cells: list[Result | None] = [None] * len(column)
    for result in results:
        cells[column[result.tournament]] = result
    struck = (
        _NONE_STRUCK
        if all(counted.counted)
        else frozenset(r.tournament for r, c in zip(results, counted.counted, strict=True) if not c)
    )
    return _Line(results, counted, results[-1].tournament, cells, struck)


def _season_lines(
    season: Season,
    tournaments: list[Tournament],
    finished: list[Tournament],
    prints: dict[int, tuple[Any, ...]],
) -> tuple[dict[int, _Line], list[tuple[Tournament, FormulaError]]]:
    """Each player's line, from the kept memo where their tournaments are unchanged; `prints`:
    the finished tournaments' digests (`_season_tournaments_with_prints`)."""
    scoring = _scoring_key(season)
    keys = {t.pk: (scoring, *_tournament_key(t), prints.get(t.pk)) for t in finished}
    best_n, participation = season.best_n, int(season.participation * 100)
    setup = (scoring, best_n, participation, tuple(t.pk for t in tournaments), tuple(keys))
    column = {t.pk: i for i, t in enumerate(tournaments)}
    with _MEMO_LOCK:
        memo = _MEMO.get(season.pk)
        if memo is None or memo.setup != setup:
            memo = _Memo(setup, {}, {}, {}, {})
        _MEMO[season.pk] = memo
        _MEMO.move_to_end(season.pk)
        while len(_MEMO) > _MEMO_KEPT:
            _MEMO.popitem(last=False)
        changed = [t for t in finished if memo.keys.get(t.pk) != keys[t.pk]]
        stale = [t for t in changed if keys[t.pk] not in _BEST]
        finishes = _finishes([t.pk for t in stale]) if stale else {}
        more = _night_more(stale, finishes) if stale and reads_night(season) else {}
        touched: set[int] = set()
        for t in changed:
            key = keys[t.pk]
            touched.update(memo.best.get(t.pk, ()))
            best = _BEST.get(key)
            memo.failed.pop(t.pk, None)
            if best is None:
                try:
                    best = _best_results(season, t, finishes[t.pk], more.get(t.pk))
                except FormulaError as exc:
                    memo.failed[t.pk] = exc
                    best = {}
                else:
                    _BEST[key] = best
                    while len(_BEST) > _BEST_KEPT:
                        _BEST.popitem(last=False)
            else:
                _BEST.move_to_end(key)
            memo.best[t.pk] = best
            memo.keys[t.pk] = key
            touched.update(best)
        bests = [memo.best[t.pk] for t in finished]
        for player, results in _results_of(touched, bests).items():
            line = _line(results, column, best_n=best_n, participation=participation)
            if line is None:
                memo.lines.pop(player, None)
            else:
                memo.lines[player] = line
        by_pk = {t.pk: t for t in finished}
        return dict(memo.lines), [(by_pk[pk], exc) for pk, exc in memo.failed.items()]


def season_standings(season: Season, *, public: bool = False) -> SeasonStandings:
    """The standings of `season` (best N, participation points, shared ranks). With `public`,
    names follow the public pages' rule: initials once the player's latest tournament of the
    season withholds names (FLOOR_PUBLIC_RESULTS_DAYS).

    Read after a correction, it costs what the changed tournament needs: the tournaments with
    the digests of their finishes (one query), that tournament's finishes, its players' lines, the names
    (one query) and the ranking."""
    if season.best_n is not None and season.best_n < 1:
        raise PointsError("best_n", "Best N must be at least 1.")
    tournaments, prints = _season_tournaments_with_prints(season)
    finished = [t for t in tournaments if t.status == Status.FINISHED]
    lines, failed = _season_lines(season, tournaments, finished, prints)
    error = formula_error_text(failed[-1][1], tournament=failed[-1][0]) if failed else ""
    names = _names(list(lines), [t.pk for t in finished])
    if missing := [player for player in lines if player not in names]:
        # An entry given to another player between the reads: the lines are the older read.
        names.update(
            (pk, (display, name))
            for pk, display, name in Player.objects.filter(pk__in=missing).values_list(
                "pk", "display_name", "name"
            )
        )
    withheld = {
        t.pk: public and names_withheld(status=t.status, starts_at=t.starts_at) for t in finished
    }

    def shown(player: int, line: _Line) -> str:
        display = names[player][0]
        return initials(display) if withheld[line.latest] else display

    order = sorted(
        ((-line.tally.total, shown(player, line), player, line) for player, line in lines.items()),
        key=lambda row: (row[0], name_key(row[1])),  # equal totals in German order
    )
    ranks = shared_ranks([-row[0] for row in order])
    rows_out = [
        StandingRow(
            rank=rank,
            player_id=player,
            name=name,
            full_name="" if public else names[player][1],
            total=line.tally.total,
            participation=line.tally.participation,
            played=len(line.results),
            cells=line.cells,
            struck=line.struck,
        )
        for rank, (_total, name, player, line) in zip(ranks, order, strict=True)
    ]
    return SeasonStandings(
        season=season,
        tournaments=[SeasonTournamentRow(t, t.status == Status.FINISHED) for t in tournaments],
        rows=rows_out,
        error=error,
    )


def _names(players: list[int], finished: list[int]) -> dict[int, tuple[str, str]]:
    """Display name and name of the standings' players. On PostgreSQL by their keys, one array
    literal (a look-up per key: about 0.5 ms for 2,000 players, where the players of the
    finishes, a semi-join over the season's 10,000 entries, took 9-15 ms); elsewhere the
    players of the finished tournaments' finishes."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT id, display_name, name FROM {connection.ops.quote_name(Player._meta.db_table)} "  # noqa: S608
                "WHERE id = ANY(%s::bigint[])",
                ["{" + ",".join(map(str, players)) + "}"],
            )
            return {pk: (display, name) for pk, display, name in cursor.fetchall()}
    of_finishes = Entry.objects.filter(tournament_id__in=finished, place__isnull=False).values(
        "player_id"
    )
    return {
        pk: (display, name)
        for pk, display, name in Player.objects.filter(pk__in=of_finishes).values_list(
            "pk", "display_name", "name"
        )
    }


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
        .values_list("number", "player_id", "place", "bounties_won", "prize", "won_seat", "hits")
    )
    finishes: list[FinishRow] = [
        (p, pl or 0, w, prize, prize > 0 or seat, hits) for _n, p, pl, w, prize, seat, hits in rows
    ]
    more = (
        _night_more([tournament], {tournament.pk: finishes})[tournament.pk]
        if reads_night(link.season)
        else None
    )
    points = tournament_points(link.season, tournament, finishes, more)
    return {number: as_points(pts) for (number, *_rest), pts in zip(rows, points, strict=True)}


def as_points(value: Points) -> Decimal:
    """Hundredths as points, two decimals (half up)."""
    return points_decimal(value)


def seasons_of_league(league: Any) -> list[Season]:
    return list(league.seasons.annotate(tournament_count=Count("links")).order_by("-created_at"))


def formula_error_text(exc: FormulaError, *, tournament: Tournament | None = None) -> str:
    """The refusal in the reader's language (leagues/words.py)."""
    return formula_error(exc, tournament=tournament)


def standings_screen(season: Season) -> dict[str, Any]:
    """The public standings as the big screen shows them (`/seasons/<id>/standings.json`):
    public names, points as decimal text (a dot, two decimals at most), the results counted
    (within the best N) and the tournaments played. No words: the page has them."""
    standings = season_standings(season, public=True)
    return {
        "league": season.league.name,
        "season": season.name,
        "tournaments": len(standings.tournaments),
        "finished": sum(1 for t in standings.tournaments if t.counted),
        "best_n": season.best_n,
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "points": points_text(row.total),
                "counted": row.played - len(row.struck),
                "played": row.played,
            }
            for row in standings.rows
        ],
    }


# --- Charts: the season's race and a person's history (leagues/domain/race.py) --------------


def night_label(tournament: Tournament) -> str:
    """A night on a chart's axis: its date in the reader's language ("5 Dec", "5. Dez.")."""
    return when(timezone.localtime(tournament.starts_at), "j M")


def season_race(season: Season, standings: SeasonStandings, *, top: int = TOP) -> Race:
    """The standings after each finished night for the first `top` of `standings` (read with
    `season_standings`, public or not: the race shows the names it shows), counted by the
    standings' own `tally` per prefix of the nights (leagues.domain.race). No query: the
    standings' cells hold every result."""
    nights = [
        Night(r.tournament.pk, night_label(r.tournament))
        for r in standings.tournaments
        if r.counted
    ]
    racers = [
        Racer(row.player_id, row.name, [cell for cell in row.cells if cell is not None])
        for row in standings.rows
    ]
    return race(
        nights,
        racers,
        best_n=season.best_n,
        participation=int(season.participation * 100),
        top=top,
    )


def person_nights(player: Player, *, public: bool) -> PersonHistory:
    """A person's finishes night by night with their league points (leagues.domain.race):
    public, only what the public profile lists (tournament.people_selectors.public_history);
    otherwise every entry with a place. The points are the person's result in the standings of
    the season the night counts for (its best finish; none where the formula fails)."""
    rows = (
        people_selectors.public_history(player)
        if public
        else people_selectors.person_history(player)
    )
    entries = [row.entry for row in rows if row.entry.place is not None]
    links = {
        link.tournament_id: link.season
        for link in SeasonTournament.objects.filter(
            tournament_id__in={e.tournament_id for e in entries}
        ).select_related("season")
    }
    points: dict[int, Points] = {}
    for season in {s.pk: s for s in links.values()}.values():
        row = next((r for r in season_standings(season).rows if r.player_id == player.pk), None)
        if row is not None:
            points.update((c.tournament, c.points) for c in row.cells if c is not None)
    return person_history(
        [
            Finish(
                tournament=e.tournament_id,
                label=night_label(e.tournament),
                starts_at=e.tournament.starts_at,
                place=e.place,
                field=e.tournament.entries_counted,
                points=points.get(e.tournament_id) if e.tournament_id in links else None,
            )
            for e in entries
        ]
    )
