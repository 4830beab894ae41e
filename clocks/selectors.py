"""Reads of the clock: replay the stored history through the pure domain."""

from __future__ import annotations

import random
import uuid
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language

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


# --- What a clock screen shows, kept in the cache ----------------------------------------------
# A screen's poll (the clock JSON, the big screen's snapshot) needs the structure, the clock's
# history and the tournament's numbers: six queries. They change only with a command, an edit or
# a logged change, so they are kept in the cache and the time left is worked out per request from
# them and `now` (the pure `clock_state`). Every change forgets them (clocks/receivers.py): a
# generation key per tournament gets a new random value, and a kept screen of another
# generation is not used. A reader that read the database before a change and writes after it
# writes under the old generation, which nobody reads. Kept for one to two minutes, for a change
# made outside the services (the admin): each copy for a random time in that range, so that the
# screens of many clocks built in the same second (a restart, a festival's screens coming up)
# are not all built again in one later second. With the same minute for all, 500 clocks'
# screens expired together every minute and the JSON's p99 rose from 2 to about 190 ms
# (bench/clock_many.py, docs/benchmarks.md).
SCREEN_SECONDS = 60
_jitter = random.Random()  # spreads expiry; nothing secret
SCREEN_VERSION = 1  # raise when ClockScreen changes: a kept one of another shape is not read
GENERATION_SECONDS = 24 * 3600


@dataclass(frozen=True)
class ClockScreen:
    """What a clock screen's snapshot is made of, except the time: the tournament, its levels,
    the clock's history, and the snapshot's parts that do not change with time (`rest`)."""

    tournament: Tournament
    levels: list[Level]
    timings: list[LevelTiming]
    history: list[DomainEvent]
    rest: dict[str, Any]

    def state(self, now: datetime) -> ClockState:
        return clock_state(self.timings, self.history, now)


def clock_screen_parts(tournament: Tournament, rest: dict[str, Any]) -> ClockScreen:
    levels = list(tournament.structure.levels.all())
    clock = Clock.objects.filter(tournament=tournament).first()
    return ClockScreen(tournament, levels, level_timings(levels), clock_events(clock), rest)


def _generation_key(tournament_id: int) -> str:
    return f"clocks.screen.gen.{tournament_id}"


def cached_clock_screen(tournament_id: int, build: Callable[[], ClockScreen]) -> ClockScreen:
    """The tournament's kept screen data, built (and kept) when there is none of the current
    generation. One cache round trip when warm, no query. Read in a transaction that changed
    what the screen shows (not committed yet), the generation is that transaction's own
    (`_changed_here`): it reads the change, and nobody else takes the copy it keeps."""
    gen_key = _generation_key(tournament_id)
    key = f"clocks.screen.{SCREEN_VERSION}.{tournament_id}.{get_language() or ''}"
    got = cache.get_many([gen_key, key])
    generation, kept = got.get(gen_key), got.get(key)
    if (here := _changed_here(tournament_id)) is not None:
        if generation is None:
            # The first generation, made by this reader: its own is kept under it.
            base = uuid.uuid4().hex
            generation = base if cache.add(gen_key, base, GENERATION_SECONDS) else None
        if generation is not None:
            generation = f"{generation}.{here}"
    if generation is not None and kept is not None and kept[0] == generation:
        return kept[1]  # type: ignore[no-any-return]
    if generation is None:
        # No generation yet: this reader keeps nothing (a change may come while it reads), the
        # next one keeps its copy. A tournament that does not exist (404) leaves no key behind.
        screen = build()
        cache.add(gen_key, uuid.uuid4().hex, GENERATION_SECONDS)
        return screen
    screen = build()
    cache.set(key, (generation, screen), SCREEN_SECONDS + _jitter.randrange(SCREEN_SECONDS))
    return screen


# The changes of the transaction open on a connection that no clock screen has been told of
# yet (they are not committed): tournament id -> (a generation of this transaction's own, the
# callback that tells everyone once it commits).
_CHANGED: weakref.WeakKeyDictionary[Any, dict[int, tuple[str, Callable[[], None]]]] = (
    weakref.WeakKeyDictionary()
)


def _changed_here(tournament_id: int) -> str | None:
    """This transaction's own generation of the tournament's screen, if the transaction changed
    what it shows: while the callback that forgets it at the commit is still due (a rollback
    drops the callback, and the mark with it)."""
    conn = transaction.get_connection()
    changed = _CHANGED.get(conn)
    if not changed or (mark := changed.get(tournament_id)) is None:
        return None
    if conn.in_atomic_block and any(func is mark[1] for _ids, func, _r in conn.run_on_commit):
        return mark[0]
    del changed[tournament_id]
    return None


def forget_clock_screen(tournament_id: int) -> None:
    """Something a clock screen shows changed: forget the kept data once the change commits
    (any copy made before, from the committed data, is not read again). Until then the
    transaction that made the change reads it through a generation of its own
    (`_changed_here`): the cache's round trip comes after the commit, not inside the
    transaction (one less on a bust's path, bench/seating.py)."""

    def forget() -> None:
        cache.set(_generation_key(tournament_id), uuid.uuid4().hex, GENERATION_SECONDS)

    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        forget()
        return
    changed = _CHANGED.setdefault(conn, {})
    if _changed_here(tournament_id) is not None:
        # A forget is due at the commit already (a rollback that dropped it would have
        # dropped this change too): a new generation of its own for this transaction's reads.
        changed[tournament_id] = (uuid.uuid4().hex, changed[tournament_id][1])
        return

    def forget_committed() -> None:
        forget()
        changed = _CHANGED.get(conn)
        if changed and changed.get(tournament_id, ("", None))[1] is forget_committed:
            del changed[tournament_id]

    changed[tournament_id] = (uuid.uuid4().hex, forget_committed)
    transaction.on_commit(forget_committed)
