"""Where the button and the blinds are, hand after hand (dead-button rules).

tda-de 32-34 and bdpv section 3: the big blind always moves on to the next player in the hand;
the small blind is posted from the seat that was the big blind, or is dead when that player has
gone; the button goes to the seat that was the small blind, even when that seat is now empty (a
dead button). Nobody posts the big blind twice in a row, and nobody is left as a lone small
blind. Heads-up, the button posts the small blind and acts first before the flop (tda-de 34).

Seats are numbered 1..size clockwise. A table's blinds are a `Blinds` value; `None` fields
mean "not yet known" (no hand played).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass


class ButtonError(ValueError):
    """A button position that cannot be."""


@dataclass(frozen=True)
class Blinds:
    """Positions for one hand. The button and the small blind are seats and may be dead (no
    player in that seat); the big blind is always a player. Heads-up the button is the small
    blind."""

    button: int
    small_blind: int
    big_blind: int

    @property
    def heads_up(self) -> bool:
        return self.button == self.small_blind


def clockwise(size: int, start: int) -> Iterator[int]:
    """Seats after `start` going clockwise, ending with `start` itself."""
    for step in range(1, size + 1):
        yield (start - 1 + step) % size + 1


def next_player(size: int, after: int, players: Collection[int]) -> int:
    for seat in clockwise(size, after):
        if seat in players:
            return seat
    raise ButtonError("no player at the table")


def first_hand(size: int, players: Collection[int], button: int) -> Blinds:
    """Blinds for a table's first hand with the button at the seat the floor drew (a player)."""
    _check(size, players)
    if button not in players:
        raise ButtonError(f"seat {button} has no player for the button")
    if len(players) == 2:
        bb = next_player(size, button, players)
        return Blinds(button=button, small_blind=button, big_blind=bb)
    sb = next_player(size, button, players)
    return Blinds(button=button, small_blind=sb, big_blind=next_player(size, sb, players))


def next_hand(size: int, players: Collection[int], previous: Blinds) -> Blinds:
    """Move the blinds after a hand. `players` are the seats dealt into the next hand."""
    _check(size, players)
    bb = next_player(size, previous.big_blind, players)
    if len(players) == 2:
        # Heads-up: the button is the small blind. The player who just had the big blind gets
        # the button, so nobody posts the big blind twice in a row.
        other = next_player(size, bb, players)
        return Blinds(button=other, small_blind=other, big_blind=bb)
    # The small blind is the seat that had the big blind (dead if that player is gone); the
    # button is the seat that had the small blind (dead if that seat is empty now).
    sb = previous.big_blind
    button = previous.small_blind
    if previous.heads_up:
        # From heads-up to three players: the big blind has the button next.
        button = previous.big_blind
        sb = next_player(size, button, players)
        bb = next_player(size, sb, players)
    return Blinds(button=button, small_blind=sb, big_blind=bb)


def is_dead(seat: int, players: Collection[int]) -> bool:
    return seat not in players


def waiting_seats(size: int, blinds: Blinds) -> frozenset[int]:
    """Empty seats where a newly seated player sits out until the button has passed
    (tda-de 7 and 9): from the button (when it is dead) up to, not including, the small
    blind. Everywhere else, blinds included, a new player is dealt in at once."""
    if blinds.heads_up:
        return frozenset()
    zone: set[int] = {blinds.button}
    for seat in clockwise(size, blinds.button):
        if seat in (blinds.small_blind, blinds.button):
            break
        zone.add(seat)
    return frozenset(zone)


def due_big_blind_next(size: int, players: Collection[int], blinds: Blinds) -> int:
    """The player who will post the big blind in the next hand (tda-de 10: this player moves
    when the table must give one up)."""
    return next_player(size, blinds.big_blind, players)


def worst_empty_seat(size: int, players: Collection[int], blinds: Blinds | None) -> int:
    """The empty seat that posts the big blind soonest: the first empty seat clockwise after the
    current big blind (tda-de 10). It is never the small blind, which sits before the big
    blind; a table without a button yet has no worst seat and takes the lowest empty one."""
    empty = [s for s in range(1, size + 1) if s not in players]
    if not empty:
        raise ButtonError("the table is full")
    if blinds is None:
        return empty[0]
    for seat in clockwise(size, blinds.big_blind):
        if seat not in players:
            return seat
    raise ButtonError("the table is full")  # pragma: no cover - empty checked above


def position_from_button(size: int, players: Collection[int], button: int, seat: int) -> int:
    """How many players sit clockwise from the button up to `seat` (the button itself is 0)."""
    count = 0
    for s in clockwise(size, button):
        if s == seat:
            return count if seat != button else 0
        if s in players:
            count += 1
    raise ButtonError(f"seat {seat} is not at the table")  # pragma: no cover


def _check(size: int, players: Collection[int]) -> None:
    if not 2 <= size <= 10:
        raise ButtonError("a table has 2 to 10 seats")
    if len(players) < 2:
        raise ButtonError("a hand needs two players")
    if any(not 1 <= s <= size for s in players):
        raise ButtonError("a seat number is outside the table")
