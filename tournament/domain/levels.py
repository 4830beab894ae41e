"""How people number the rows of a structure, and when a level is expected to end.

Breaks are not levels. The playing levels are numbered 1, 2, 3 … in order; a break has no
number of its own and is "the break after level N". Every screen, setting and message speaks
of levels by this number, never by the row's position in the structure.

Settings such as "late registration until level N" mean the playing level N: they stay open
through level N and through the break(s) right after it, and close when level N + 1 begins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol


class Row(Protocol):
    """A row of a structure: a playing level or a break, `minutes` long."""

    @property
    def is_break(self) -> bool: ...

    @property
    def minutes(self) -> int: ...


@dataclass(frozen=True)
class RowLabel:
    """How a row is named: `number` is the playing level's number (None for a break);
    `after` is, for a break, the number of the level it follows (0 before the first)."""

    index: int
    is_break: bool
    number: int | None
    after: int


def row_labels(breaks: Sequence[bool]) -> list[RowLabel]:
    """One label per row, given whether each row is a break."""
    labels: list[RowLabel] = []
    number = 0
    for index, is_break in enumerate(breaks):
        if is_break:
            labels.append(RowLabel(index, True, None, number))
        else:
            number += 1
            labels.append(RowLabel(index, False, number, number - 1))
    return labels


def level_reached(breaks: Sequence[bool], index: int) -> int:
    """The number of the last playing level at or before row `index`: the level itself, or for
    a break the level it follows (0 only for a break before any level)."""
    return sum(1 for b in breaks[: index + 1] if not b)


def playing_levels(breaks: Sequence[bool]) -> int:
    """How many playing levels the structure has."""
    return sum(1 for b in breaks if not b)


def row_of_level(breaks: Sequence[bool], number: int) -> int:
    """The row index of playing level `number` (1-based). Raises ValueError if there is none."""
    seen = 0
    for index, is_break in enumerate(breaks):
        if not is_break:
            seen += 1
            if seen == number:
                return index
    raise ValueError(f"the structure has no level {number}")


def last_row_through(breaks: Sequence[bool], number: int) -> int | None:
    """The last row during which "until level `number`" still holds: level `number` and the
    breaks right after it. None when no row comes after it (the last level runs on, so the
    setting never closes by the clock)."""
    try:
        index = row_of_level(breaks, number)
    except ValueError:
        return None
    while index + 1 < len(breaks) and breaks[index + 1]:
        index += 1
    return index if index + 1 < len(breaks) else None


@dataclass(frozen=True)
class Anchor:
    """Where the clock stands: row `index` has `remaining` seconds left at instant `at`.

    Before the start: row 0 with its full length at the planned start time. A paused clock
    is estimated as if it went on now.
    """

    index: int
    remaining: float
    at: datetime


def anchor_before_start(rows: Sequence[Row], starts_at: datetime, now: datetime) -> Anchor:
    """The anchor of a clock not started yet: the planned start, or now if that has passed."""
    return Anchor(0, float(rows[0].minutes * 60) if rows else 0.0, max(starts_at, now))


def row_ends_at(rows: Sequence[Row], anchor: Anchor, index: int) -> datetime | None:
    """The estimated instant row `index` ends, counting every row's full length (breaks
    included) from the anchor on. None for a row already over."""
    if index < anchor.index or index >= len(rows):
        return None
    seconds = anchor.remaining + sum(r.minutes * 60 for r in rows[anchor.index + 1 : index + 1])
    return anchor.at + timedelta(seconds=seconds)


@dataclass(frozen=True)
class UntilLevel:
    """What "until level N" means for a structure and a clock.

    `state` is one of:
    - "at_start": no level set (or 0), it ends when the clock starts;
    - "no_limit": no level set and the setting has no limit by level (rebuys, add-ons);
    - "open": open now; closes at `closes_at` (estimated), when level N + 1 begins;
    - "open_to_the_end": open now and the clock will not close it (level N is the last one, or
      the structure has fewer levels);
    - "closed": level N is over.
    `with_break` says that a break follows level N before it closes (the break counts).
    """

    level: int | None
    state: str
    closes_at: datetime | None = None
    with_break: bool = False


def until_level(
    rows: Sequence[Row],
    level: int | None,
    *,
    anchor: Anchor,
    started: bool,
    unset_means_no_limit: bool = False,
) -> UntilLevel:
    """The outlook of an "until level N" setting (late registration, re-entry, rebuys,
    add-ons) at the clock's position. The rule is the one `lifecycle.check_purchase` applies:
    open while the level reached is at most N. An unset level closes at the start (late
    registration) or, with `unset_means_no_limit`, sets no limit (rebuys, add-ons)."""
    breaks = [r.is_break for r in rows]
    if level is None and unset_means_no_limit:
        return UntilLevel(None, "no_limit")
    if level is None or level <= 0:
        return UntilLevel(None if level is None else level, "closed" if started else "at_start")
    if started and level_reached(breaks, anchor.index) > level:
        return UntilLevel(level, "closed")
    last = last_row_through(breaks, level)
    if last is None:
        return UntilLevel(level, "open_to_the_end")
    closes_at = row_ends_at(rows, anchor, last)
    with_break = breaks[last]
    return UntilLevel(level, "open", closes_at, with_break)
