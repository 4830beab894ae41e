"""Colour-up: taking the smallest chips out of play at one table.

Two procedures, chosen by the ruleset:

- `round_up` (`tda-de` 24): each player's chips of the removed value are changed at full value;
  a remainder that does not make a whole new chip becomes one new chip (rounded up).
- `race` (`bdpv` 6.8): full values are changed; for the odd chips left over each player gets
  one card per odd chip, dealt clockwise starting left of the button, all of one player's cards
  before the next player's. The highest card — by rank, then spades, hearts, diamonds, clubs —
  wins all odd chips of the table, changed into the new chip and rounded up. Nobody is raced out:
  a player left with no chips at all gets one new chip.

The deck comes from the caller's random source (the service uses the operating system's secure
generator) and every card dealt is in the result, so the race can be shown and audited.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rules_engine.domain.pots import clockwise_from_button

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs lowest, spades highest (bdpv 2.6.1)
DECK = tuple(r + s for r in RANKS for s in SUITS)


class ChipRaceError(ValueError):
    """Input that cannot be coloured up."""


class Shuffler(Protocol):
    def shuffle(self, x: list[str]) -> None: ...


@dataclass(frozen=True)
class Holding:
    seat: int
    chips: int  # how many chips of the removed value the player has
    other_value: int = 0  # the value of the player's other chips (is anything left?)


@dataclass(frozen=True)
class SeatResult:
    seat: int
    chips: int  # removed chips handed in
    changed: int  # new chips for the full value
    odd_chips: int  # removed chips left over (raced or rounded)
    cards: tuple[str, ...]  # cards dealt in the race
    won: int  # new chips won in the race or by rounding up
    not_raced_out: bool  # got one new chip so as not to be raced out

    @property
    def new_chips(self) -> int:
        return self.changed + self.won + (1 if self.not_raced_out else 0)


@dataclass(frozen=True)
class ColourUp:
    method: str
    removed: int
    new_value: int
    seats: tuple[SeatResult, ...]  # in dealing order
    winner: int | None  # seat with the highest card (race only)
    rules: tuple[str, ...]

    @property
    def value_before(self) -> int:
        return sum(s.chips for s in self.seats) * self.removed

    @property
    def value_after(self) -> int:
        return sum(s.new_chips for s in self.seats) * self.new_value


def other_value_from_count(count: int | None, chips: int, removed: int) -> int | None:
    """The value of a player's chips besides `chips` chips of value `removed`, from the
    player's latest chip count (bdpv 6.8: nobody is raced out, so whether anything is left
    matters). None when it is not known: no count, or a count smaller than what the player
    hands in (the count is older than the stack)."""
    if count is None:
        return None
    rest = count - chips * removed
    return rest if rest >= 0 else None


def card_strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def colour_up(
    holdings: Sequence[Holding],
    *,
    removed: int,
    new_value: int,
    method: str,
    button: int,
    table_seats: int,
    rng: Shuffler,
) -> ColourUp:
    if removed <= 0 or new_value <= removed:
        raise ChipRaceError("the new chip must be worth more than the chip taken out")
    if new_value % removed:
        raise ChipRaceError("the new chip must be a whole number of the chips taken out")
    if method not in ("round_up", "race"):
        raise ChipRaceError(f"unknown colour-up method {method!r}")
    seats = [h.seat for h in holdings]
    if len(set(seats)) != len(seats):
        raise ChipRaceError("a seat is listed twice")
    for h in holdings:
        if not 1 <= h.seat <= table_seats:
            raise ChipRaceError(f"seat {h.seat} is not at a {table_seats}-seat table")
        if h.chips < 0 or h.other_value < 0:
            raise ChipRaceError("chip counts cannot be negative")
    if not 1 <= button <= table_seats:
        raise ChipRaceError(f"seat {button} is not at a {table_seats}-seat table")
    per_chip = new_value // removed
    by_seat = {h.seat: h for h in holdings}
    order = clockwise_from_button(seats, button, table_seats)

    if method == "round_up":
        results = []
        for seat in order:
            h = by_seat[seat]
            changed, odd = divmod(h.chips, per_chip)
            results.append(SeatResult(seat, h.chips, changed, odd, (), 1 if odd else 0, False))
        return ColourUp(method, removed, new_value, tuple(results), None, ("tda-de 24",))

    odd_total = sum(by_seat[s].chips % per_chip for s in order)
    if odd_total > len(DECK):
        raise ChipRaceError(
            "more odd chips than cards in a deck: colour up in two steps (a smaller chip first)"
        )
    deck = list(DECK)
    rng.shuffle(deck)
    if sorted(deck) != sorted(DECK):
        raise ChipRaceError("the shuffle lost or added cards")
    dealt: dict[int, tuple[str, ...]] = {}
    position = 0
    for seat in order:
        odd = by_seat[seat].chips % per_chip
        dealt[seat] = tuple(deck[position : position + odd])
        position += odd
    winner: int | None = None
    best: tuple[int, int] | None = None
    for seat in order:
        for c in dealt[seat]:
            if best is None or card_strength(c) > best:
                best, winner = card_strength(c), seat
    won_chips = -(-odd_total // per_chip)  # the odd chips in new chips, rounded up
    results = []
    for seat in order:
        h = by_seat[seat]
        changed, odd = divmod(h.chips, per_chip)
        won = won_chips if seat == winner else 0
        left = changed + won
        rescued = left == 0 and h.other_value == 0 and h.chips > 0
        results.append(SeatResult(seat, h.chips, changed, odd, dealt[seat], won, rescued))
    return ColourUp(method, removed, new_value, tuple(results), winner, ("bdpv 6.8",))
