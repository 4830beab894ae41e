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


@dataclass(frozen=True)
class Room:
    """What decides whether a place is free, whoever asks (a sign-up, the desk, the waiting list).

    `places`: offered to sign-ups (the sheet's number, else the capacity less the places held
    back); `reserved`: held back for the desk; `seats`: the tournament's capacity (None: no
    limit); `entries`: the entries playing (walk-ins and checked-in sign-ups alike: the
    tournament's players left); `promised`: sign-ups with a place not checked in yet;
    `holding`: sign-ups holding a place (promised or checked in)."""

    places: int
    reserved: int
    seats: int | None
    entries: int
    promised: int
    holding: int

    @property
    def taken(self) -> int:
        """Seats taken or promised: every entry playing and every place a sign-up holds."""
        return self.entries + self.promised

    @property
    def offered(self) -> int:
        """The places sign-ups can have: never more than the seats less those held back."""
        if self.seats is None:
            return self.places
        return max(0, min(self.places, self.seats - self.reserved))

    @property
    def free(self) -> int:
        """Places a new sign-up (or the first waiting) can have now: one of the places offered,
        and a seat nobody has taken or was promised (a walk-in beyond the places held back
        takes one of the sign-ups' places)."""
        free = self.offered - self.holding
        if self.seats is not None:
            free = min(free, self.seats - self.taken)
        return max(0, free)


def walk_in_refused(room: Room, *, waiting: int) -> bool:
    """Whether a registration at the desk that is not a check-in must be refused: every seat is
    taken or promised, and a sign-up still holds a place or waits for one (`waiting`, before
    the check-in deadline). Without any, a full room makes an alternate, as without sign-ups."""
    if room.seats is None or room.taken < room.seats:
        return False
    return room.promised > 0 or waiting > 0


# The country code a national phone number (0171 …) is read in, for telling people apart.
PHONE_COUNTRY = "49"
PHONE_SHORTEST = 6


def email_key(email: str) -> str:
    """An e-mail address as it tells a person apart: trimmed, case folded; "" for none."""
    return email.strip().casefold()


def phone_key(phone: str) -> str:
    """A phone number as it tells a person apart: its digits in international form ("+49 171
    …", "0049 171 …" and "0171 …" are one number); "" for none or fewer than six digits."""
    text = phone.strip()
    digits = "".join(c for c in text if c.isascii() and c.isdigit())
    if text.startswith("+"):
        key = digits
    elif digits.startswith("00"):
        key = digits[2:]
    elif digits.startswith("0"):
        key = PHONE_COUNTRY + digits[1:]
    else:
        key = digits
    return key if len(key) >= PHONE_SHORTEST else ""


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
