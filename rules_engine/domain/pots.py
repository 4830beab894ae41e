"""Pots: main and side pots with who may win them, the uncalled bet, and splitting with odd chips.

Pure arithmetic on what each seat put in during the hand (antes, blinds and bets together).
Amounts are integers in chips.

Rules behind it: each side pot is split on its own (`tda-de` 21, `bdpv` split pot 3); chips that
cannot be split evenly, once broken down to the smallest chip in play, go to the first winner
clockwise from the button (`tda-de` 20, `bdpv` split pot 2). The dealer course gives one odd chip
to each winner in turn from the button instead; that is the `one_each` variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal


class PotError(ValueError):
    """Impossible input for the pot arithmetic."""


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: frozenset[int]  # seats that can win it


@dataclass(frozen=True)
class PotResult:
    pots: tuple[Pot, ...]  # main pot first
    returned: tuple[int, int] | None  # (seat, chips) of an uncalled bet handed back

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.pots) + (self.returned[1] if self.returned else 0)


def pots_from(contributions: Mapping[int, int], folded: Iterable[int] = ()) -> PotResult:
    """Build the pots from what each seat put in over the whole hand.

    The part of the largest contribution that nobody else matched is handed back (it was never
    called). Then every distinct amount a live player put in closes a pot: the main pot holds
    what everyone could match of the smallest live all-in, the next side pot the layer above it,
    and so on. Folded players' chips stay in the pots they reached but they win none.
    """
    if any(v < 0 for v in contributions.values()):
        raise PotError("a contribution cannot be negative")
    out = set(folded)
    if not out <= set(contributions):
        raise PotError("a folded seat has no contribution")
    live = [s for s in contributions if s not in out]
    if not live:
        raise PotError("at least one player must still be in the hand")
    paid = dict(contributions)
    returned: tuple[int, int] | None = None
    ranked = sorted(paid.items(), key=lambda kv: kv[1], reverse=True)
    if ranked and ranked[0][1] > 0:
        top_seat, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        if top > second:
            returned = (top_seat, top - second)
            paid[top_seat] = second
    levels = sorted({paid[s] for s in live if paid[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(v, level) - min(v, previous) for v in paid.values())
        eligible = frozenset(s for s in live if paid[s] >= level)
        if amount:
            if pots and pots[-1].eligible == eligible:  # same players: one pot, not two
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        previous = level
    # Dead chips above every live player's level (a folded player who put in more than any
    # live player could match, after the uncalled part went back) join the last pot.
    dead_above = sum(max(0, v - previous) for v in paid.values())
    if dead_above:
        if pots:
            last = pots[-1]
            pots[-1] = Pot(last.amount + dead_above, last.eligible)
        else:
            pots.append(Pot(dead_above, frozenset(live)))
    result = PotResult(tuple(pots), returned)
    assert result.total == sum(contributions.values())
    return result


OddChips = Literal["first", "one_each"]


def split_pot(
    amount: int,
    winners: Sequence[int],
    *,
    smallest_chip: int = 1,
    odd_chips: OddChips = "first",
) -> dict[int, int]:
    """Share `amount` between `winners`, given in clockwise order starting left of the button.

    Everyone gets the same number of the smallest chip; what is left goes to the first winner
    (`first`: `tda-de` 20, `bdpv`) or one smallest chip to each winner in turn (`one_each`: the
    dealer course). Amounts below the smallest chip (which cannot be on the table) go with the
    odd chips.
    """
    if amount < 0:
        raise PotError("a pot cannot be negative")
    if not winners:
        raise PotError("a pot needs at least one winner")
    if len(set(winners)) != len(winners):
        raise PotError("a winner is listed twice")
    if smallest_chip < 1:
        raise PotError("the smallest chip must be at least 1")
    chips, dust = divmod(amount, smallest_chip)
    each, odd = divmod(chips, len(winners))
    shares = {w: each * smallest_chip for w in winners}
    if odd_chips == "first":
        shares[winners[0]] += odd * smallest_chip + dust
    else:
        for w in winners[:odd]:
            shares[w] += smallest_chip
        shares[winners[0]] += dust
    return shares


def clockwise_from_button(seats: Iterable[int], button: int, table_seats: int) -> list[int]:
    """`seats` ordered clockwise starting with the first seat after the button."""
    return sorted(seats, key=lambda s: (s - button - 1) % table_seats)
