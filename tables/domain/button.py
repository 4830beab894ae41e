"""Where the button and the blinds are, hand after hand (dead-button rules).

tda-de 32-34 and bdpv section 3: the big blind always moves on to the next player in the hand;
the small blind is posted from the seat that was the big blind, or is dead when that player has
gone; the button goes to the seat that was the small blind, even when that seat is now empty (a
dead button). Nobody posts the big blind twice in a row, and nobody is left as a lone small
blind. Heads-up, the button posts the small blind and acts first before the flop (tda-de 34).

Seats are numbered 1..size clockwise. A table's blinds are a `Blinds` value; `None` fields
mean "not yet known" (no hand played).

Who posts in the next hand is answered in one place, `deal_next_hand`: the blinds move by the
rules above over the players dealt into the next hand, and a player waiting for the button is
dealt in once his seat is outside the next hand's waiting zone. Everything else that asks "who
posts next", "which empty seat is the worst" or "where must a new player wait" reads it
(`due_big_blind_next`, `newcomer_at`, `worst_empty_seat`; `tables.domain.seating` for whole
tables).
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


def deal_next_hand(
    size: int, previous: Blinds, playing: Collection[int], waiting: Collection[int] = ()
) -> tuple[Blinds, frozenset[int]]:
    """The next hand's positions and the seats dealt into it, after the hand played with
    `previous` (tda-de 32-34, bdpv 3.2).

    `playing`: the seats whose players are dealt in; the caller leaves out players who are out
    in the hand just played, whether or not their seat is free yet. `waiting`: seats whose
    players sit out until the button has passed them (tda-de 7, 9); such a player is dealt in
    when his seat is outside the next hand's waiting zone, and the positions are then worked
    out with him. Raises `ButtonError` when fewer than two players are dealt in."""
    blinds = next_hand(size, playing, previous)
    released = frozenset(waiting) - waiting_seats(size, blinds) - frozenset(playing)
    if not released:
        return blinds, frozenset(playing)
    dealt = frozenset(playing) | released
    return next_hand(size, dealt, previous), dealt


def due_big_blind_next(
    size: int,
    players: Collection[int],
    blinds: Blinds,
    *,
    waiting: Collection[int] = (),
    leaving: Collection[int] = (),
) -> int:
    """The player who will post the big blind in the next hand (tda-de 10: this player moves
    when the table must give one up). `players` are the seated players, `waiting` and
    `leaving` those of them who wait for the button or are out in the hand being played."""
    playing = set(players) - set(waiting) - set(leaving)
    return deal_next_hand(size, blinds, playing, set(waiting) - set(leaving))[0].big_blind


@dataclass(frozen=True)
class Newcomer:
    """What a player seated now at an empty seat can expect: whether he sits out until the
    button has passed (tda-de 7, 9), and how many hands are dealt before he posts the big
    blind, counting the next hand as the first (0: he posts it in the next hand)."""

    seat: int
    must_wait: bool
    hands_to_big_blind: int


def newcomer_at(
    size: int,
    previous: Blinds,
    playing: Collection[int],
    waiting: Collection[int],
    seat: int,
) -> Newcomer:
    """A newcomer at the empty `seat` of a table whose current hand has the positions
    `previous` (see `deal_next_hand` for `playing` and `waiting`)."""
    try:
        blinds, dealt = deal_next_hand(size, previous, {*playing, seat}, waiting)
    except ButtonError:
        return Newcomer(seat, False, 0)
    must_wait = seat in waiting_seats(size, blinds)
    if must_wait:
        # He sits out: the next hand is dealt without him.
        try:
            blinds, dealt = deal_next_hand(size, previous, playing, waiting)
        except ButtonError:
            return Newcomer(seat, True, 0)
    return Newcomer(seat, must_wait, hands_before(size, blinds.big_blind, {*dealt, seat}, seat))


def hands_before(size: int, big_blind: int, players: Collection[int], seat: int) -> int:
    """How many of `players` post the big blind before `seat`, the big blind moving on one
    player a hand from `big_blind` (0 when `seat` is the big blind)."""
    if seat == big_blind:
        return 0
    count = 1 if big_blind in players else 0
    for s in clockwise(size, big_blind):
        if s == seat:
            return count
        if s in players:
            count += 1
    raise ButtonError(f"seat {seat} is not at the table")  # pragma: no cover


def worst_empty_seat(
    size: int,
    players: Collection[int],
    blinds: Blinds | None,
    *,
    waiting: Collection[int] = (),
    leaving: Collection[int] = (),
) -> int:
    """The empty seat where a newcomer posts the big blind soonest: the worst position
    (tda-de 10). It is never the small blind, which posts the big blind last; of two seats
    alike, the first clockwise after the current big blind. `players` are all seated players
    (`waiting` and `leaving` among them, as in `due_big_blind_next`); a table without a
    button yet has no worst seat and takes the lowest empty one."""
    empty = [s for s in range(1, size + 1) if s not in players]
    if not empty:
        raise ButtonError("the table is full")
    if blinds is None:
        return empty[0]
    playing = set(players) - set(waiting) - set(leaving)
    held = set(waiting) - set(leaving)
    order = {s: i for i, s in enumerate(clockwise(size, blinds.big_blind))}
    return min(
        empty,
        key=lambda s: (newcomer_at(size, blinds, playing, held, s).hands_to_big_blind, order[s]),
    )


def _check(size: int, players: Collection[int]) -> None:
    if not 2 <= size <= 10:
        raise ButtonError("a table has 2 to 10 seats")
    if len(players) < 2:
        raise ButtonError("a hand needs two players")
    if any(not 1 <= s <= size for s in players):
        raise ButtonError("a seat number is outside the table")
