"""Reading chip counts: the latest count per player (one query), the field's stacks, leaders,
the public list. The arithmetic is in counts/domain/stacks.py.

The latest count per player is one query: `DISTINCT ON (entry_id) … ORDER BY entry_id, id DESC`
on PostgreSQL (served by the index `chipcount_latest`), the highest id per entry on SQLite."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import BooleanField, Case, IntegerField, Max, Min, Q, Value, When
from django.utils import timezone

from clocks.domain.clock import level_starts
from clocks.models import Clock
from clocks.selectors import clock_events, clock_state_for, level_timings
from counts.domain.graphs import (
    CountPoint,
    LeadersChart,
    Runner,
    StackChart,
    chart_axis,
    leaders_chart,
    level_periods,
    levels_at,
    playback_levels,
    stack_chart,
)
from counts.domain.stacks import (
    Counted,
    Field,
    Player,
    Stack,
    field_stacks,
    in_big_blinds,
    leaders,
    ranked,
)
from counts.models import ChipCount
from tournament.live import board_version
from tournament.models import Entry, EntryStatus, Level, Tournament
from tournament.public_selectors import initials, names_withheld

LEADERS = 10
# The public counts are kept this long per event-log version of the tournament: a count, a bust
# or a move writes an event and so a new version; the time bounds what no event marks (the
# names withheld after some days).
PUBLIC_SECONDS = 30


def latest_rows(rows: Any) -> Any:
    """`rows` (counts) narrowed to the latest count per player."""
    if connection.vendor == "postgresql":
        return rows.order_by("entry_id", "-id").distinct("entry_id")
    return rows.filter(id__in=rows.values("entry_id").annotate(last=Max("id")).values("last"))


def _latest(rows: Any) -> list[Counted]:
    rows = latest_rows(rows)
    return [
        Counted(id=i, entry_id=e, count=c, at=at)
        for i, e, c, at in rows.values_list("id", "entry_id", "count", "recorded_at")
    ]


def latest_counts(tournament_id: int) -> list[Counted]:
    """The latest count of every player still playing."""
    return _latest(
        ChipCount.objects.filter(tournament_id=tournament_id, entry__status=EntryStatus.ACTIVE)
    )


def latest_counts_of(tournament_id: int, entry_ids: Sequence[int]) -> list[Counted]:
    """The latest counts of these players (whatever their status)."""
    return _latest(ChipCount.objects.filter(tournament_id=tournament_id, entry_id__in=entry_ids))


def chip_leaders(tournament: Tournament, limit: int = LEADERS) -> list[Stack]:
    """The largest latest counts of players still playing, in one query (the database sorts;
    the whole field is not loaded): for the console's leaders."""
    latest = latest_rows(ChipCount.objects.filter(tournament_id=tournament.pk)).values("id")
    rows = (
        ChipCount.objects.filter(id__in=latest, entry__status=EntryStatus.ACTIVE)
        .order_by("-count", "entry__number")
        .values_list(
            "entry_id",
            "entry__number",
            "entry__player__display_name",
            "entry__seat__table__number",
            "entry__seat__seat",
            "count",
            "recorded_at",
        )[:limit]
    )
    big_blind = big_blind_now(tournament)
    return [
        Stack(
            player=Player(entry_id=e, number=n, name=name, table=table, seat=seat),
            chips=chips,
            counted=True,
            at=at,
            big_blinds=in_big_blinds(chips, big_blind),
        )
        for e, n, name, table, seat, chips, at in rows
    ]


def players_left(tournament: Tournament, *, withheld: bool = False) -> list[Player]:
    """The players still in, with their table and seat now; `withheld`: initials only."""
    rows = tournament.entries.filter(status=EntryStatus.ACTIVE).values_list(
        "id", "number", "player__display_name", "seat__table__number", "seat__seat"
    )
    return [
        Player(
            entry_id=i,
            number=n,
            name=initials(name) if withheld else name,
            table=table,
            seat=seat,
        )
        for i, n, name, table, seat in rows
    ]


def big_blind_now(tournament: Tournament, now: datetime | None = None) -> int | None:
    """The big blind of the level being played (in a break: of the next level; before the
    start: of the first level), from the clock."""
    levels: list[Level] = list(tournament.structure.levels.all())
    if not levels:
        return None
    state = clock_state_for(tournament, now, levels)
    index = state.level_index if state.started else 0
    for lv in levels[index:] + levels[:index][::-1]:
        if not lv.is_break and lv.big_blind:
            return lv.big_blind
    return None


def tournament_field(tournament: Tournament, *, withheld: bool = False) -> Field:
    chips_in_play = Tournament.objects.values_list("chips_in", flat=True).get(pk=tournament.pk)
    latest = {c.entry_id: c for c in latest_counts(tournament.pk)}
    return field_stacks(
        players_left(tournament, withheld=withheld),
        latest,
        chips_in_play=chips_in_play,
        big_blind=big_blind_now(tournament),
    )


def table_sheet(field: Field, table_number: int) -> list[Any]:
    """The stacks of the players at one table, in seat order."""
    return [s for s in field.stacks if s.player.table == table_number]


def tables_of(field: Field) -> list[int]:
    return sorted({s.player.table for s in field.stacks if s.player.table is not None})


def stacks_for_deal(tournament: Tournament, entry_ids: Sequence[int]) -> dict[int, int]:
    """The latest counts of these players (only those counted), for the deal calculator."""
    live = set(
        tournament.entries.filter(pk__in=entry_ids, status=EntryStatus.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    return {
        c.entry_id: c.count
        for c in latest_counts_of(tournament.pk, entry_ids)
        if c.entry_id in live
    }


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def public_counts(tournament: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """What the public page, the API and the big screen show: display names (initials once
    names are withheld), table and seat, chips, big blinds, when counted. No private data.

    Built once per event-log version (a crowd of phones reads one copy), kept PUBLIC_SECONDS."""
    now = now or timezone.now()
    version = board_version(tournament.pk)
    key = f"counts.public.{tournament.pk}.{version}"
    data = cache.get(key)
    if data is None:
        data = _public_counts(tournament)
        cache.set(key, data, PUBLIC_SECONDS)
    # `version`: the event-log version the counts are at least as new as (read before them); a
    # page compares it with its socket's hello (static/counts/live.js).
    return {**data, "as_of": now.isoformat(), "version": version}


def _public_counts(tournament: Tournament) -> dict[str, Any]:
    withheld = names_withheld(status=tournament.status, starts_at=tournament.starts_at)
    field = tournament_field(tournament, withheld=withheld)

    def row(s: Any, rank: int | None = None) -> dict[str, Any]:
        return {
            "rank": rank,
            "number": s.player.number,
            "name": s.player.name,
            "table": s.player.table,
            "seat": s.player.seat,
            "chips": s.chips,
            "counted": s.counted,
            "big_blinds": s.big_blinds,
            "counted_at": _iso(s.at),
        }

    a = field.average
    ordered = ranked(field)
    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "players_left": a.players,
        "chips_in_play": field.chips_in_play,
        "big_blind": field.big_blind,
        "average": {
            "chips": a.chips,
            "big_blinds": round(a.chips / field.big_blind, 1) if field.big_blind else None,
            "counted": a.counted,
            "players": a.players,
            "source": a.source,
            "oldest": _iso(a.oldest),
            "newest": _iso(a.newest),
        },
        "estimate": field.estimate,
        "leaders": [row(s, i + 1) for i, s in enumerate(leaders(field, LEADERS))],
        "players": [row(s, i + 1 if s.counted else None) for i, s in enumerate(ordered)],
    }


# The chip graphs (counts/domain/graphs.py): each count with the playing level it was made in,
# asked of the database as a CASE over the instants the levels began (the clock's history), so
# the leaders at a level of the playback are found by the database, not by loading the field.

# The entries whose counts the graphs draw: in the field or out of it (not the alternates
# waiting, not a refunded entry).
GRAPH_STATUSES = (EntryStatus.ACTIVE, EntryStatus.BUSTED)


def tournament_level_periods(
    tournament: Tournament, now: datetime | None = None
) -> list[tuple[datetime, int]]:
    """From which instant on a count falls in which playing level (counts.domain.graphs
    `level_periods`): from the clock's history; empty before the start or without levels."""
    levels: list[Level] = list(tournament.structure.levels.all())
    clock = Clock.objects.filter(tournament_id=tournament.pk).first()
    starts = level_starts(level_timings(levels), clock_events(clock), now or timezone.now())
    return level_periods(starts, [lv.is_break for lv in levels])


def level_case(field: str, periods: Sequence[tuple[datetime, int]]) -> Any:
    """The playing level the instant in `field` fell in, as an SQL expression (the same answer
    as counts.domain.graphs.levels_at: a period begins at its instant)."""
    if not periods:
        return Value(0, output_field=IntegerField())
    whens = [When(**{f"{field}__lt": periods[0][0]}, then=Value(0))]
    for (_at, level), (following, _next) in itertools.pairwise(periods):
        whens.append(When(**{f"{field}__lt": following}, then=Value(level)))
    return Case(*whens, default=Value(periods[-1][1]), output_field=IntegerField())


_BAG = Case(
    When(bag_number="", then=Value(False)), default=Value(True), output_field=BooleanField()
)


def _graph_counts(tournament_id: int, periods: Sequence[tuple[datetime, int]]) -> Any:
    return ChipCount.objects.filter(
        tournament_id=tournament_id, entry__status__in=GRAPH_STATUSES
    ).annotate(level=level_case("recorded_at", periods), bag=_BAG)


def _points(rows: Any) -> list[CountPoint]:
    return [
        CountPoint(id=i, entry_id=e, chips=c, level=lv, bag=b)
        for i, e, c, lv, b in rows.values_list("id", "entry_id", "count", "level", "bag")
    ]


def _runners(
    tournament: Tournament,
    entry_ids: Sequence[int],
    periods: Sequence[tuple[datetime, int]],
    withheld: bool,
) -> dict[int, Runner]:
    rows = list(
        Entry.objects.filter(tournament_id=tournament.pk, pk__in=entry_ids).values_list(
            "id", "number", "player__display_name", "status", "busted_at"
        )
    )
    busted = [r[4] for r in rows if r[3] == EntryStatus.BUSTED and r[4] is not None]
    out_at = dict(zip(busted, levels_at(periods, busted), strict=True))
    runners = {}
    for i, number, name, status, busted_at in rows:
        out: int | None = None
        if status == EntryStatus.BUSTED:
            # Out without a time (an import): out from the start, never a leader.
            out = out_at[busted_at] if busted_at is not None else 0
        runners[i] = Runner(
            entry_id=i, number=number, name=initials(name) if withheld else name, out_level=out
        )
    return runners


def graph_playback_levels(tournament: Tournament) -> list[int]:
    """The levels the counts' playback steps through (empty: nothing counted)."""
    periods = tournament_level_periods(tournament)
    return playback_levels(_graph_axis(tournament.pk, periods))


def _graph_axis(tournament_id: int, periods: Sequence[tuple[datetime, int]]) -> Any:
    """The x axis in three small reads rather than a DISTINCT over every count: the first and
    the last level counted (every level between is on the axis anyway), the bag-and-tag
    positions (bags are few), and whether anything was counted before the start."""
    counts = ChipCount.objects.filter(tournament_id=tournament_id).order_by()
    level = level_case("recorded_at", periods)
    span = counts.aggregate(lo=Min(level), hi=Max(level))
    if span["lo"] is None:
        return []
    bags = counts.exclude(bag_number="").values_list(level, flat=True).distinct()
    keys = {(lv, True) for lv in bags}
    keys |= {(lv, False) for lv in (span["lo"], span["hi"]) if lv > 0}
    before = counts.filter(bag_number="")
    if periods:
        before = before.filter(recorded_at__lt=periods[0][0])
    if before.exists():
        keys.add((0, False))
    return chart_axis(keys)


def leaders_graph(
    tournament: Tournament,
    *,
    upto: int | None = None,
    limit: int = LEADERS,
    withheld: bool = False,
) -> LeadersChart | None:
    """The chip leaders' lines through level `upto` (None: the last counted level): the
    database finds the `limit` biggest stacks known then among the players not out by then
    and hands over only their counts (a few queries, whatever the field's size). None: nothing
    counted. `withheld`: initials for the names."""
    periods = tournament_level_periods(tournament)
    axis = _graph_axis(tournament.pk, periods)
    if not axis:
        return None
    last = playback_levels(axis)[-1]
    through = last if upto is None else min(upto, last)
    top = _leaders_through(tournament.pk, periods, through, limit)
    points = _points(_graph_counts(tournament.pk, periods).filter(entry_id__in=top))
    runners = _runners(tournament, top, periods, withheld)
    return leaders_chart(points, runners, upto=through, limit=limit, axis=axis)


def _leaders_through(
    tournament_id: int, periods: Sequence[tuple[datetime, int]], upto: int, limit: int
) -> list[int]:
    """The entries of the `limit` biggest counts known through level `upto` of the players not
    out by then (ties: the lower number), as counts.domain.graphs.leaders_at chooses them."""
    out = (
        Entry.objects.filter(tournament_id=tournament_id, status=EntryStatus.BUSTED)
        .alias(out=level_case("busted_at", periods))
        .filter(Q(busted_at__isnull=True) | Q(out__lte=upto))
        .values("id")
    )
    known = ChipCount.objects.filter(
        tournament_id=tournament_id, entry__status__in=GRAPH_STATUSES
    ).exclude(entry_id__in=out)
    if all(a[1] <= b[1] for a, b in itertools.pairwise(periods)):
        # The levels only went up (no jump back): "counted in a level up to `upto`" is
        # "counted before the first later level began", a plain comparison.
        later = [at for at, level in periods if level > upto]
        if later:
            known = known.filter(recorded_at__lt=later[0])
    else:
        known = known.alias(level=level_case("recorded_at", periods)).filter(level__lte=upto)
    latest = latest_rows(known).values("id")
    return list(
        ChipCount.objects.filter(id__in=latest)
        .order_by("-count", "entry__number")
        .values_list("entry_id", flat=True)[: max(0, limit)]
    )


def stack_graph(tournament: Tournament, entry_id: int) -> StackChart | None:
    """One player's stack over the levels (None: never counted)."""
    periods = tournament_level_periods(tournament)
    rows = ChipCount.objects.filter(tournament_id=tournament.pk, entry_id=entry_id).annotate(
        level=level_case("recorded_at", periods), bag=_BAG
    )
    return stack_chart(_points(rows))
