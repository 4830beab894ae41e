"""The blind clock as data.

A clock is the structure (level lengths) plus the history of commands: start, pause, resume,
add (± seconds), set_remaining and jump (to a 0-based level index); stop when the tournament ends
and reopen when a director reopens it. `clock_state` replays that
history for any instant, so nothing has to fire for the clock to be right and a restart loses
nothing. When the structure is exhausted the last level runs on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

KINDS = ("start", "pause", "resume", "add", "set_remaining", "jump", "stop", "reopen")


class ClockError(ValueError):
    """A command the clock cannot take in its current state."""


@dataclass(frozen=True)
class LevelTiming:
    seconds: int
    is_break: bool = False


@dataclass(frozen=True)
class ClockEvent:
    kind: str
    at: datetime
    seconds: int = 0
    level: int = 0


@dataclass(frozen=True)
class ClockState:
    started: bool
    running: bool
    level_index: int
    is_break: bool
    remaining: float
    level_ends_at: datetime | None
    next_level_index: int | None
    seconds_to_next_break: float | None
    elapsed_in_level: float
    on_last_level: bool
    stopped: bool = False  # the tournament has ended: the clock shows no time any more


@dataclass
class _Replay:
    started: bool = False
    running: bool = False
    level: int = 0
    elapsed: float = 0.0  # seconds played in the current level
    at: datetime | None = None
    stopped: bool = False
    # When each row began, (instant, row index), in time order: kept only for `level_starts`.
    starts: list[tuple[datetime, int]] | None = None


def _advance(levels: Sequence[LevelTiming], r: _Replay, until: datetime) -> None:
    """Let the running clock play from r.at to `until`, crossing level ends."""
    if r.at is None:
        r.at = until
        return
    if r.running and until > r.at:
        r.elapsed += (until - r.at).total_seconds()
        while r.level < len(levels) - 1 and r.elapsed >= levels[r.level].seconds:
            r.elapsed -= levels[r.level].seconds
            r.level += 1
            if r.starts is not None:  # the level rolled over this long before `until`
                r.starts.append((until - timedelta(seconds=r.elapsed), r.level))
    r.at = max(r.at, until)


def _apply(levels: Sequence[LevelTiming], r: _Replay, e: ClockEvent) -> None:
    """Apply one command to the replay; raises ClockError if the command is not possible."""
    if e.kind not in KINDS:
        raise ClockError(f"unknown command {e.kind!r}")
    if r.at is not None and e.at < r.at:
        raise ClockError("commands must be in time order")
    if e.kind == "stop":
        # The tournament has ended. A clock never started stops too: it will not start.
        if r.stopped:
            raise ClockError("the clock is already stopped")
        _advance(levels, r, e.at)
        r.stopped, r.running = True, False
        return
    if e.kind == "reopen":
        # A director reopened the tournament: the clock is paused where it stopped (the time
        # it stood still does not count) until the floor resumes it.
        if not r.stopped:
            raise ClockError("the clock is not stopped")
        r.stopped = False
        r.at = max(r.at or e.at, e.at)
        return
    if r.stopped:
        raise ClockError("the clock is stopped: the tournament has ended")
    if e.kind == "start":
        if r.started:
            raise ClockError("the clock is already started")
        r.started, r.running, r.level, r.elapsed, r.at = True, True, 0, 0.0, e.at
        if r.starts is not None:
            r.starts.append((e.at, 0))
        return
    if not r.started:
        raise ClockError("the clock has not been started")
    _advance(levels, r, e.at)
    length = levels[r.level].seconds
    if e.kind == "pause":
        if not r.running:
            raise ClockError("the clock is not running")
        r.running = False
    elif e.kind == "resume":
        if r.running:
            raise ClockError("the clock is not paused")
        r.running = True
    elif e.kind == "add":
        remaining = max(0.0, length - r.elapsed) + e.seconds
        if remaining < 0 or remaining > length:
            raise ClockError("the remaining time would be negative or longer than the level")
        r.elapsed = length - remaining
    elif e.kind == "set_remaining":
        if not 0 <= e.seconds <= length:
            raise ClockError("the remaining time must lie between zero and the level length")
        r.elapsed = float(length - e.seconds)
    elif e.kind == "jump":
        if not 0 <= e.level < len(levels):
            raise ClockError("no such level")
        r.level, r.elapsed = e.level, 0.0
        if r.starts is not None:
            r.starts.append((e.at, e.level))
    # A command may leave the level exactly at its end: let it roll over now.
    _advance(levels, r, e.at)


def _replay(levels: Sequence[LevelTiming], events: Sequence[ClockEvent]) -> _Replay:
    if not levels:
        raise ClockError("the structure has no levels")
    r = _Replay()
    for e in events:
        _apply(levels, r, e)
    return r


def clock_state(
    levels: Sequence[LevelTiming], events: Sequence[ClockEvent], now: datetime
) -> ClockState:
    """The clock at `now`: level, time left, break, next level, time to the next break."""
    r = _replay(levels, events)
    if not r.started:
        return ClockState(
            started=False,
            running=False,
            level_index=0,
            is_break=levels[0].is_break,
            remaining=float(levels[0].seconds),
            level_ends_at=None,
            next_level_index=1 if len(levels) > 1 else None,
            seconds_to_next_break=_to_break(levels, 0, float(levels[0].seconds)),
            elapsed_in_level=0.0,
            on_last_level=len(levels) == 1,
            stopped=r.stopped,
        )
    if r.at is not None and now > r.at:
        _advance(levels, r, now)
    last = r.level == len(levels) - 1
    remaining = max(0.0, levels[r.level].seconds - r.elapsed)
    if last and r.elapsed >= levels[r.level].seconds:
        remaining = 0.0
    ends_at = now + timedelta(seconds=remaining) if r.running and not last else None
    if r.running and last and remaining > 0:
        ends_at = now + timedelta(seconds=remaining)
    return ClockState(
        started=True,
        running=r.running,
        level_index=r.level,
        is_break=levels[r.level].is_break,
        remaining=remaining,
        level_ends_at=ends_at,
        next_level_index=None if last else r.level + 1,
        seconds_to_next_break=_to_break(levels, r.level, remaining),
        elapsed_in_level=r.elapsed,
        on_last_level=last,
        stopped=r.stopped,
    )


def level_starts(
    levels: Sequence[LevelTiming], events: Sequence[ClockEvent], now: datetime
) -> list[tuple[datetime, int]]:
    """When each row of the structure began to be played up to `now`: (instant, row index) in
    time order, from the start (row 0) through every level end and every jump (a jump back
    makes a row begin again). Empty before the start and for a structure without levels.
    Which row an instant fell in is the last start at or before it (bisect)."""
    if not levels:
        return []
    r = _Replay(starts=[])
    for e in events:
        _apply(levels, r, e)
    if r.started and r.at is not None and now > r.at:
        _advance(levels, r, now)
    return r.starts or []


def _to_break(levels: Sequence[LevelTiming], index: int, remaining: float) -> float | None:
    """Seconds from now until the next break after the current level starts; None if none."""
    total = remaining
    for lv in levels[index + 1 :]:
        if lv.is_break:
            return total
        total += lv.seconds
    return None


def validate_command(
    levels: Sequence[LevelTiming], events: Sequence[ClockEvent], command: ClockEvent
) -> None:
    """Raise ClockError if `command` cannot follow `events`."""
    r = _replay(levels, events)
    _apply(levels, r, command)
