"""Sign-ups for a tournament's places: who gets a place, who waits, who moves up (pure).

A sign-up arrives with an arrival number (`sequence`, given under a lock, so two sign-ups never
share one). While confirmed sign-ups are fewer than the places, a new one is confirmed; beyond,
it waits, and the waiting list is ordered by arrival. A place given back (a cancellation, a
no-show at the check-in deadline, more places) goes to the first waiting sign-ups in arrival
order. The rulebooks (tda-de, bdpv) say nothing of sign-ups; this is the club's policy
(docs/signups.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

NAME_LONGEST = 60


class Status(Enum):
    CONFIRMED = "confirmed"
    WAITING = "waiting"
    CANCELLED = "cancelled"
    CHECKED_IN = "checked_in"
    NO_SHOW = "no_show"


# Who holds a place: a confirmed sign-up until it checks in, is cancelled or misses the deadline;
# a checked-in one holds it as an entry of the tournament.
HOLDING = frozenset({Status.CONFIRMED, Status.CHECKED_IN})


@dataclass(frozen=True)
class Slot:
    sequence: int
    status: Status
    # The waiting order: the arrival number, unless a director moved the sign-up to the top.
    rank: int | None = None

    @property
    def order(self) -> tuple[int, int]:
        return (self.sequence if self.rank is None else self.rank, self.sequence)


def admitted(holding: int, places: int) -> Status:
    """A new sign-up's status: confirmed while fewer than `places` are held, else waiting."""
    return Status.CONFIRMED if holding < places else Status.WAITING


def free_places(slots: Iterable[Slot], places: int) -> int:
    """Places not held by anyone (never below zero: places may have been reduced)."""
    held = sum(1 for s in slots if s.status in HOLDING)
    return max(0, places - held)


def free_of(held: int, places: int) -> int:
    """Places not held when `held` are (never below zero: places may have been reduced)."""
    return max(0, places - held)


def moving_up_in(waiting: Sequence[int], free: int) -> list[int]:
    """Of the waiting list (arrival numbers in its order), those who get the `free` places."""
    return list(waiting[: max(0, free)])


def moving_up(slots: Iterable[Slot], places: int) -> list[int]:
    """The sequences of the waiting sign-ups that get a place now, first come first."""
    slots = list(slots)
    waiting = sorted((s for s in slots if s.status is Status.WAITING), key=lambda s: s.order)
    return [s.sequence for s in waiting[: free_places(slots, places)]]


def waiting_positions(slots: Iterable[Slot]) -> dict[int, int]:
    """sequence -> place on the waiting list (1 = next to move up)."""
    waiting = sorted((s for s in slots if s.status is Status.WAITING), key=lambda s: s.order)
    return {s.sequence: i + 1 for i, s in enumerate(waiting)}


def no_shows(slots: Iterable[Slot]) -> list[int]:
    """At the check-in deadline: every confirmed sign-up that has not checked in."""
    return sorted(s.sequence for s in slots if s.status is Status.CONFIRMED)


class NameRefused(Enum):
    EMPTY = "empty"
    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    CONTROL = "control"


def name_refusal(name: str) -> NameRefused | None:
    """A display name is 2 to 60 characters after trimming (a person record needs two), with
    no control characters (line breaks, tabs, zero-width and direction marks included)."""
    text = name.strip()
    if not text:
        return NameRefused.EMPTY
    if len(text) < 2:
        return NameRefused.TOO_SHORT
    if len(text) > NAME_LONGEST:
        return NameRefused.TOO_LONG
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        return NameRefused.CONTROL
    return None


def apply(slots: Sequence[Slot], places: int) -> list[Slot]:
    """The slots after the free places went to the waiting list (for tests and checks)."""
    up = set(moving_up(slots, places))
    return [Slot(s.sequence, Status.CONFIRMED, s.rank) if s.sequence in up else s for s in slots]
