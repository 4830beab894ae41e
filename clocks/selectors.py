"""Reads of the clock: replay the stored history through the pure domain."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from clocks.domain.clock import ClockEvent as DomainEvent
from clocks.domain.clock import ClockState, LevelTiming, clock_state
from clocks.models import Clock
from tournament.domain.levels import (
    Anchor,
    UntilLevel,
    anchor_before_start,
    level_reached,
    row_labels,
    until_level,
)
from tournament.models import Level, Tournament

# The tournament's "until level N" settings; for rebuys and add-ons an empty level means no limit.
UNTIL_LEVEL_FIELDS = (
    "late_registration_until_level",
    "reentry_until_level",
    "rebuy_until_level",
    "addon_until_level",
)
NO_LIMIT_WHEN_EMPTY = ("rebuy_until_level", "addon_until_level")


def level_timings(levels: list[Level]) -> list[LevelTiming]:
    return [LevelTiming(seconds=lv.minutes * 60, is_break=lv.is_break) for lv in levels]


def clock_events(clock: Clock | None) -> list[DomainEvent]:
    if clock is None:
        return []
    return [
        DomainEvent(kind=e.kind, at=e.at, seconds=e.seconds, level=e.level)
        for e in clock.events.all()
    ]


def clock_state_for(
    tournament: Tournament, now: datetime | None = None, levels: list[Level] | None = None
) -> ClockState:
    levels = levels if levels is not None else list(tournament.structure.levels.all())
    clock = Clock.objects.filter(tournament=tournament).first()
    return clock_state(level_timings(levels), clock_events(clock), now or timezone.now())


def current_level_number(tournament: Tournament, now: datetime | None = None) -> int | None:
    """The 1-based number of the playing level now (breaks not counted), None before the start.

    During a break this is the number of the level before the break.
    """
    levels = list(tournament.structure.levels.all())
    state = clock_state_for(tournament, now, levels)
    if not state.started:
        return None
    return level_reached([lv.is_break for lv in levels], state.level_index)


def numbered(levels: list[Level]) -> list[Level]:
    """The levels with `number` (the playing level's number, None for a break) and `after`
    (for a break: the number of the level it follows) set on each: the one numbering every
    screen shows (breaks are not levels)."""
    for lv, label in zip(levels, row_labels([lv.is_break for lv in levels]), strict=True):
        lv.number = label.number  # type: ignore[attr-defined]
        lv.after = label.after  # type: ignore[attr-defined]
    return levels


def clock_anchor(
    tournament: Tournament, levels: list[Level], state: ClockState, now: datetime
) -> Anchor:
    """Where the clock stands for estimates: the running (or paused) level and its time left,
    or before the start the planned start time (now, once that has passed)."""
    if not state.started:
        return anchor_before_start(levels, tournament.starts_at, now)
    return Anchor(state.level_index, state.remaining, now)


def until_level_outlooks(
    tournament: Tournament, now: datetime | None = None
) -> dict[str, UntilLevel]:
    """For each "until level N" setting: open or closed, and when it closes (estimated from the
    clock and the structure's lengths, breaks included)."""
    now = now or timezone.now()
    levels = list(tournament.structure.levels.all())
    if not levels:
        return {}
    state = clock_state_for(tournament, now, levels)
    anchor = clock_anchor(tournament, levels, state, now)
    outlooks = {}
    for field in UNTIL_LEVEL_FIELDS:
        level = getattr(tournament, field)
        late = tournament.late_registration_until_level
        if field == "reentry_until_level":
            # Re-entry without its own level follows late registration, and never outlasts it
            # (tournament/domain/lifecycle.py).
            level = None if late is None else min(level or late, late)
        outlooks[field] = until_level(
            levels,
            level,
            anchor=anchor,
            started=state.started,
            unset_means_no_limit=field in NO_LIMIT_WHEN_EMPTY,
        )
    return outlooks
