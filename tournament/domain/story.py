"""The night's story as chart data: the field over the levels, the entries per level, the
payout ladder.

Pure: the selectors (tournament/story_selectors.py) count the rows per stretch of the clock in
the database and hand the counts in; the drawing (tournament/charts.py) turns what comes out
into words and SVG. Every function here takes and returns plain values.

Time on the charts is the structure's rows (levels and breaks): what happened at an instant
belongs to the row the clock showed then. `row_changes` replays the clock's history into the
instants at which the shown row changed; `stretch_row` names the row of each stretch between
two such instants, which is what the database groups by.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby

from clocks.domain.clock import ClockEvent, LevelTiming, level_starts
from tournament.domain.levels import RowLabel, row_labels


@dataclass(frozen=True)
class RowChange:
    """From `at` on, the clock showed row `row` (0-based index into the structure)."""

    at: datetime
    row: int


def row_changes(
    levels: Sequence[LevelTiming], events: Sequence[ClockEvent], now: datetime
) -> list[RowChange]:
    """The instants at which the clock's row changed, up to `now`, from its stored history
    (a start, pauses, jumps, a stop): the clock's own replay (clocks.domain.clock
    level_starts), a row begun again in a row kept once. Empty when the clock never started
    or has no levels. A jump back to an earlier level is a change like any other."""
    changes: list[RowChange] = []
    for at, row in level_starts(levels, events, now):
        if not changes or changes[-1].row != row:
            changes.append(RowChange(at, row))
    return changes


def planned_row_changes(levels: Sequence[LevelTiming], start: datetime) -> list[RowChange]:
    """The rows as the structure plans them from `start`, without pauses: for a tournament
    played without Floor's clock (a night imported from files)."""
    changes: list[RowChange] = []
    at = start
    for row, level in enumerate(levels):
        changes.append(RowChange(at, row))
        at += timedelta(seconds=level.seconds)
    return changes


def stretch_row(changes: Sequence[RowChange], stretch: int) -> int:
    """The row of stretch `stretch`: 0 is before the first change (the registration before
    the start counts in the first row), k is from change k-1 on."""
    if stretch <= 0 or not changes:
        return 0
    return changes[min(stretch, len(changes)) - 1].row


@dataclass(frozen=True)
class EntryGroup:
    """`count` entries that entered in stretch `entered` and busted in stretch `busted`
    (None: still in). The database groups the entries so."""

    entered: int
    busted: int | None
    reentry: bool
    count: int


@dataclass(frozen=True)
class Tally:
    """What happened during one row: buy-ins (first entries), re-entries, busts, and the
    chips bought (buy-ins, re-entries, rebuys, add-ons)."""

    entries: int = 0
    reentries: int = 0
    busts: int = 0
    chips: int = 0


def row_tallies(
    changes: Sequence[RowChange],
    groups: Iterable[EntryGroup],
    chips: Iterable[tuple[int, int]],
) -> dict[int, Tally]:
    """The tallies per row from the database's groups: entries per (entered, busted) stretch
    and chips per stretch (`(stretch, chips)`). An entry whose recorded instant comes after
    its bust (an entry recorded later) counts as entered when it busted: nobody busts before
    entering."""
    counts: dict[int, list[int]] = {}

    def add(row: int, column: int, amount: int) -> None:
        counts.setdefault(row, [0, 0, 0, 0])[column] += amount

    for g in groups:
        entered = g.entered if g.busted is None else min(g.entered, g.busted)
        add(stretch_row(changes, entered), 1 if g.reentry else 0, g.count)
        if g.busted is not None:
            add(stretch_row(changes, g.busted), 2, g.count)
    for stretch, amount in chips:
        add(stretch_row(changes, stretch), 3, amount)
    return {row: Tally(*c) for row, c in counts.items()}


@dataclass(frozen=True)
class FieldPoint:
    """The field at the end of one row (or now, for the row being played)."""

    label: RowLabel
    entries: int  # every entry so far, re-entries included
    busts: int
    players_left: int
    chips_in_play: int
    average_stack: float | None  # None while nobody is in


@dataclass(frozen=True)
class EntriesPoint:
    """The entries bought during one row."""

    label: RowLabel
    entries: int
    reentries: int
    total_so_far: int


def _through(breaks: Sequence[bool], tallies: Mapping[int, Tally], last_row: int) -> list[Tally]:
    """One tally per row from the first through `last_row` (within the structure); what
    happened in a later row counts in the last one, so the totals are all there."""
    if not breaks:
        return []
    last = max(0, min(last_row, len(breaks) - 1))
    rows = [tallies.get(r, Tally()) for r in range(last + 1)]
    late = [t for r, t in tallies.items() if r > last]
    if late:
        rows[last] = Tally(
            rows[last].entries + sum(t.entries for t in late),
            rows[last].reentries + sum(t.reentries for t in late),
            rows[last].busts + sum(t.busts for t in late),
            rows[last].chips + sum(t.chips for t in late),
        )
    return rows


def field_story(
    breaks: Sequence[bool], tallies: Mapping[int, Tally], last_row: int
) -> list[FieldPoint]:
    """Players left and the average stack at the end of each row through `last_row`.
    Players left = entries so far − busts so far; the average is the chips bought so far over
    the players left. Empty when there are no levels or no entries (nothing to draw)."""
    rows = _through(breaks, tallies, last_row)
    if not any(t.entries or t.reentries for t in rows):
        return []
    points: list[FieldPoint] = []
    entries = busts = chips = 0
    for label, t in zip(row_labels(breaks), rows, strict=False):
        entries += t.entries + t.reentries
        busts += t.busts
        chips += t.chips
        left = entries - busts
        points.append(
            FieldPoint(label, entries, busts, left, chips, chips / left if left > 0 else None)
        )
    return points


def entries_story(
    breaks: Sequence[bool], tallies: Mapping[int, Tally], last_row: int
) -> list[EntriesPoint]:
    """Buy-ins and re-entries bought during each row through `last_row`; empty when there are
    no levels or no entries."""
    rows = _through(breaks, tallies, last_row)
    if not any(t.entries or t.reentries for t in rows):
        return []
    points: list[EntriesPoint] = []
    total = 0
    for label, t in zip(row_labels(breaks), rows, strict=False):
        total += t.entries + t.reentries
        points.append(EntriesPoint(label, t.entries, t.reentries, total))
    return points


@dataclass(frozen=True)
class Rung:
    """Places `first` to `last` (1 = the winner) each pay `amount` (minor units)."""

    first: int
    last: int
    amount: int

    @property
    def places(self) -> int:
        return self.last - self.first + 1


def payout_ladder(amounts: Sequence[int]) -> list[Rung]:
    """The payout table (index 0 = 1st place) as a ladder: neighbouring places that pay the
    same are one rung. Places that pay nothing end the ladder."""
    rungs: list[Rung] = []
    first = 1
    for amount, same in groupby(amounts):
        if amount <= 0:
            break
        places = sum(1 for _ in same)
        rungs.append(Rung(first, first + places - 1, amount))
        first += places
    return rungs
