"""Chip graphs from the chip counts: one player's stack over the levels, and the chip leaders'
lines with a playback through the levels. Pure: the selectors load the counts with the level
each fell in (`level_periods`, from the clock's level starts); the views label and draw.

The x axis is made of positions (`Slot`): the playing levels from the first counted one to the
last, every level between included whether counted or not (a count in a break belongs to the
level before it); "Start" for counts before the first level; and a bag and tag (counts with a
bag number) after the level the day ended in. A bag counted before the first level was carried
in from an earlier day (a Day 2's bags): it comes before the start. A player's value at a
position is the last count there (the highest id: counts are append-only); between two counted
positions the line holds the stack as last counted (a level without a count is no gap in the
line), and it ends at the last count. The tables beside the charts hold the counts themselves.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tournament.domain.levels import level_reached

LEADERS = 10


@dataclass(frozen=True)
class CountPoint:
    """One chip count: `level` is the playing level it was counted in (0: before the first
    level), `bag` whether it is a bag count of a bag and tag."""

    id: int
    entry_id: int
    chips: int
    level: int
    bag: bool = False


@dataclass(frozen=True)
class Runner:
    """A player of the chart: `name` as the page may show it (the public name on public pages);
    `out_level`: the playing level they busted in (None: still in)."""

    entry_id: int
    number: int
    name: str
    out_level: int | None = None


@dataclass(frozen=True)
class Slot:
    """A position on the x axis: playing level `level` (0: before the first level), or with
    `day` > 0 the bag and tag of that day (the days' bags numbered 1, 2, … along the axis)."""

    level: int
    day: int = 0

    @property
    def bag(self) -> bool:
        return self.day > 0


@dataclass(frozen=True)
class StackChart:
    """One player's stack: `values` has one entry per slot (where not counted: the stack as
    last counted); `rows` the counted positions, for the table beside the chart."""

    slots: list[Slot]
    values: list[int | None]
    rows: list[tuple[Slot, int]]


@dataclass(frozen=True)
class Line:
    runner: Runner
    values: list[
        int | None
    ]  # one per slot; None before the first count, after the last, after `upto`


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    runner: Runner
    chips: int
    slot: Slot  # where the count was made


@dataclass(frozen=True)
class LeadersChart:
    """The chip leaders through level `upto`: the `limit` biggest stacks known then among the
    players still in, largest first, each with its line over the whole axis (values after
    `upto` empty, so the axis stays put during a playback). `levels`: the playback's steps."""

    slots: list[Slot]
    upto: int
    levels: list[int]
    lines: list[Line]
    rows: list[LeaderRow]


def level_periods(
    starts: Sequence[tuple[datetime, int]], breaks: Sequence[bool]
) -> list[tuple[datetime, int]]:
    """From the clock's row starts (clocks.domain.clock.level_starts) the instants from which on
    a count falls in each playing level: (instant, level number), in time order. A break belongs
    to the level before it, so consecutive rows of one level make one period; before the first
    instant the level is 0 (before the start)."""
    periods: list[tuple[datetime, int]] = []
    for at, row in starts:
        level = level_reached(breaks, row)
        if not periods or periods[-1][1] != level:
            periods.append((at, level))
    return periods


def levels_at(periods: Sequence[tuple[datetime, int]], times: Iterable[datetime]) -> list[int]:
    """The playing level each instant fell in (0 before the start): the last period begun at
    or before it. (The selectors ask the database the same with a CASE over the periods.)"""
    begins = [p[0] for p in periods]
    found = []
    for at in times:
        i = bisect_right(begins, at)
        found.append(periods[i - 1][1] if i else 0)
    return found


def chart_axis(keys: Iterable[tuple[int, bool]]) -> list[Slot]:
    """The x axis for counts at these (level, bag) positions: every level from the first to the
    last, "Start" only when counted before the first level, a bag and tag where bags were
    counted (before the start: carried in, so first)."""
    seen = set(keys)
    if not seen:
        return []
    levels = [k[0] for k in seen]
    slots: list[Slot] = []
    days = 0
    for level in range(min(levels), max(levels) + 1):
        if level == 0:
            if (0, True) in seen:
                days += 1
                slots.append(Slot(0, days))
            if (0, False) in seen:
                slots.append(Slot(0))
            continue
        slots.append(Slot(level))
        if (level, True) in seen:
            days += 1
            slots.append(Slot(level, days))
    return slots


def _slot_index(slots: Sequence[Slot]) -> dict[tuple[int, bool], int]:
    return {(s.level, s.bag): i for i, s in enumerate(slots)}


def _last_per_slot(
    points: Iterable[CountPoint], index: Mapping[tuple[int, bool], int], size: int
) -> tuple[list[int | None], list[int]]:
    """The last count at each slot (None: none) and the ids of those counts (0: none)."""
    values: list[int | None] = [None] * size
    ids = [0] * size
    for p in points:
        i = index.get((p.level, p.bag))
        if i is not None and p.id > ids[i]:
            ids[i], values[i] = p.id, p.chips
    return values, ids


def held_between(values: Sequence[int | None]) -> list[int | None]:
    """Each empty value between two counted ones holds the one before it (the stack as last
    counted); before the first and after the last stay empty."""
    held: list[int | None] = []
    last: int | None = None
    for v in values:
        last = v if v is not None else last
        held.append(last)
    end = max((i for i, v in enumerate(values) if v is not None), default=-1)
    return [v if i <= end else None for i, v in enumerate(held)]


def stack_chart(points: Iterable[CountPoint]) -> StackChart | None:
    """One player's stack over the levels from their counts; None without a count (nothing to
    draw). One count draws one point."""
    own = list(points)
    if not own:
        return None
    slots = chart_axis((p.level, p.bag) for p in own)
    values, _ids = _last_per_slot(own, _slot_index(slots), len(slots))
    rows = [(s, v) for s, v in zip(slots, values, strict=True) if v is not None]
    return StackChart(slots=slots, values=held_between(values), rows=rows)


def playback_levels(slots: Sequence[Slot]) -> list[int]:
    """The playback's steps: each level on the axis once, in order."""
    return sorted({s.level for s in slots})


def leaders_at(
    points: Iterable[CountPoint], runners: Mapping[int, Runner], upto: int, limit: int = LEADERS
) -> list[tuple[Runner, CountPoint]]:
    """The `limit` biggest stacks known through level `upto` (each player's latest count at a
    level up to it) among the players still in after it (out at a later level, or not out);
    largest first, ties by the lower player number. Counts of players not in `runners` are
    ignored."""
    known: dict[int, CountPoint] = {}
    for p in points:
        if p.level > upto:
            continue
        held = known.get(p.entry_id)
        if held is None or p.id > held.id:
            known[p.entry_id] = p
    standing: list[tuple[Runner, CountPoint]] = []
    for entry_id, p in known.items():
        runner = runners.get(entry_id)
        if runner is None or (runner.out_level is not None and runner.out_level <= upto):
            continue
        standing.append((runner, p))
    standing.sort(key=lambda rp: (-rp[1].chips, rp[0].number))
    return standing[: max(0, limit)]


def leaders_chart(
    points: Iterable[CountPoint],
    runners: Mapping[int, Runner],
    *,
    upto: int | None = None,
    limit: int = LEADERS,
    axis: Sequence[Slot] | None = None,
) -> LeadersChart | None:
    """The chip leaders' lines through level `upto` (None, or beyond it: the last level on the
    axis). `axis`:
    the whole tournament's x axis when `points` hold only some players' counts (the selectors
    load the leaders' counts only); by default the axis of `points`. None when nothing was
    counted (nothing to draw); with no leader yet at `upto` the chart has the axis and no
    lines."""
    mine = list(points)
    slots = list(axis) if axis is not None else chart_axis((p.level, p.bag) for p in mine)
    if not slots:
        return None
    levels = playback_levels(slots)
    # Beyond the last counted level the chart is the latest: it is named by that level.
    through = levels[-1] if upto is None else min(upto, levels[-1])
    top = leaders_at(mine, runners, through, limit)
    index = _slot_index(slots)
    upto_slot = [s.level <= through for s in slots]
    chosen = {r.entry_id for r, _p in top}
    by_entry: dict[int, list[CountPoint]] = {e: [] for e in chosen}
    for p in mine:
        if p.entry_id in chosen:
            by_entry[p.entry_id].append(p)
    lines = []
    for runner, _p in top:
        values, _ids = _last_per_slot(by_entry[runner.entry_id], index, len(slots))
        shown = [v if up else None for v, up in zip(values, upto_slot, strict=True)]
        lines.append(Line(runner=runner, values=held_between(shown)))
    rows = [
        LeaderRow(rank=i + 1, runner=r, chips=p.chips, slot=slots[index[(p.level, p.bag)]])
        for i, (r, p) in enumerate(top)
        if (p.level, p.bag) in index
    ]
    return LeadersChart(slots=slots, upto=through, levels=levels, lines=lines, rows=rows)
