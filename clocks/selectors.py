"""Reads of the clock: replay the stored history through the pure domain."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from clocks.domain.clock import ClockEvent as DomainEvent
from clocks.domain.clock import ClockState, LevelTiming, clock_state
from clocks.models import Clock
from tournament.models import Level, Tournament


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
    return sum(1 for lv in levels[: state.level_index + 1] if not lv.is_break)
