"""Reads for the night's story (tournament/domain/story.py): the entries, busts and chips
counted per stretch of the clock in the database, a few dozen rows whatever the field's size.

The clock's history gives the instants at which its row changed (`row_changes`); each entry's
and purchase's instant is sorted into the stretch between two of them by one CASE in SQL and
counted there (GROUP BY), so a 30,000-entry event reads about as many rows as it has levels.
A night played without Floor's clock (imported from files, or not started yet) counts every
entry and purchase from the start, and its busts on the structure's planned times.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, Count, IntegerField, Q, Sum, Value, When
from django.utils import timezone

from clocks.models import Clock
from clocks.selectors import clock_events, level_timings
from tournament.domain.story import (
    EntryGroup,
    RowChange,
    Rung,
    Tally,
    payout_ladder,
    planned_row_changes,
    row_changes,
    row_tallies,
)
from tournament.models import EntryStatus, Purchase, Status, Tournament
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.validation import SettingsBroken

COUNTED = Q(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED])


@dataclass(frozen=True)
class StoryCounts:
    """What the field and entries charts are drawn from: whether each row is a break, the
    tallies per row, and the last row to draw (the one being played, or the last played)."""

    breaks: list[bool]
    tallies: dict[int, Tally]
    last_row: int


@dataclass(frozen=True)
class StoryPrizes:
    """The prize pool and its payout ladder (minor units); `broken` when the settings break a
    rule and no table can be made."""

    currency: str
    prize_pool: int
    ladder: list[Rung]
    broken: bool = False
    flight: bool = False  # a starting flight: its event's Day 2 pays the places


def _stretch(field: str, changes: list[RowChange], low: int = 0, high: int | None = None) -> Any:
    """The stretch of `field`'s instant: the number of row changes at or before it, found by
    halving (about five comparisons a row for thirty changes, not fifteen)."""
    high = len(changes) if high is None else high
    if low >= high:
        return Value(low, IntegerField())
    middle = (low + high) // 2
    return Case(
        When(**{f"{field}__lt": changes[middle].at}, then=_stretch(field, changes, low, middle)),
        default=_stretch(field, changes, middle + 1, high),
        output_field=IntegerField(),
    )


def story_counts(tournament: Tournament, now: datetime | None = None) -> StoryCounts:
    """The entries, re-entries, busts and chips per row of the structure, in two grouped
    queries over the tournament's entries and purchases."""
    now = now or timezone.now()
    levels = list(tournament.structure.levels.all()) if tournament.structure_id else []
    breaks = [lv.is_break for lv in levels]
    if not levels:
        return StoryCounts(breaks, {}, 0)
    timings = level_timings(levels)
    clock = Clock.objects.filter(tournament=tournament).first()
    changes = row_changes(timings, clock_events(clock), now)
    clocked = bool(changes)
    if not clocked and tournament.status == Status.FINISHED:
        changes = planned_row_changes(timings, tournament.starts_at)
    busted = Case(
        When(~Q(status=EntryStatus.BUSTED) | Q(busted_at__isnull=True), then=Value(None)),
        default=_stretch("busted_at", changes),
        output_field=IntegerField(),
    )
    entered = _stretch("created_at", changes) if clocked else Value(0, IntegerField())
    groups = (
        tournament.entries.filter(COUNTED)
        .annotate(entered=entered, busted=busted)
        .values_list("entered", "busted", "is_reentry")
        .annotate(n=Count("id"))
        .order_by()
    )
    bought = _stretch("created_at", changes) if clocked else Value(0, IntegerField())
    chips = (
        Purchase.objects.filter(entry__tournament=tournament, refunded=False)
        .filter(entry__status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED])
        .annotate(stretch=bought)
        .values_list("stretch")
        .annotate(chips=Sum("chips"))
        .order_by()
    )
    tallies = row_tallies(
        changes,
        (EntryGroup(e, b, r, n) for e, b, r, n in groups),
        ((s, c) for s, c in chips if c),  # no rows: one row of NULL (no group)
    )
    if clocked:
        last_row = changes[-1].row
    else:
        last_row = max((r for r, t in tallies.items() if t.busts), default=0)
    return StoryCounts(breaks, tallies, last_row)


def story_prizes(tournament: Tournament) -> StoryPrizes:
    """The prize pool and the payout table as a ladder (places that pay the same together)."""
    try:
        numbers = tournament_numbers(tournament)
        amounts = payout_amounts(tournament, numbers)
    except SettingsBroken:
        return StoryPrizes(tournament.currency, 0, [], broken=True)
    return StoryPrizes(
        tournament.currency,
        numbers.prize_pool,
        payout_ladder(amounts),
        flight=tournament.pool_to_id is not None,
    )
