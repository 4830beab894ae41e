"""Final-table deals: ICM (Malmuth–Harville), chip chop and custom splits, exact in minor units.

All functions take the stacks of the players left (in chips) and the prizes still to be paid
(index 0 = the best place still open), and return one amount per player in the same order as the
stacks. Amounts always sum exactly to what is distributed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise


class DealError(ValueError):
    """A deal that cannot be computed or does not add up. `code` and `params` let the caller
    say it in the reader's language."""

    def __init__(self, message: str, code: str = "", **params: int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


MAX_ICM_PLAYERS = 10


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """ICM equity per player (Malmuth–Harville), in minor units.

    The chance to finish first is the share of the chips; given who finished above, the chance to
    take the next place is the share of the chips that are left. Computed over all subsets of
    players already placed (2^n · n steps), in floating point: a subset's chance is a product of
    at most n chip shares, and each equity a sum of at most 2^n · n such terms, so the result is
    within about 1e-9 of a minor unit of the exact value for any pool Floor accepts. The shares
    are then rounded by `round_to_unit`, which first snaps a value that lies within 1e-6 of a
    unit-grid point onto it (docs/money.md, "Deals"): the amounts equal those of an exact
    computation with fractions (the tests compare them with an independent one).
    """
    _check(stacks, prizes)
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise DealError(f"ICM is computed exactly for up to {MAX_ICM_PLAYERS} players")
    total = sum(stacks)
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    size = 1 << n
    chips_of = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        chips_of[mask] = chips_of[mask ^ low] + stacks[low.bit_length() - 1]
    # prob[mask]: the chance that exactly the players in `mask` took the best places, in some
    # order. A subset only grows, so counting masks upwards visits each after all its subsets.
    prob = [0.0] * size
    prob[0] = 1.0
    equity = [0.0] * n
    players = [(i, 1 << i, stacks[i]) for i in range(n) if stacks[i] > 0]
    for mask in range(size):
        p = prob[mask]
        if p == 0.0:
            continue
        place = mask.bit_count()
        left = total - chips_of[mask]
        if place >= n or left <= 0:
            continue
        prize = paid[place]
        scale = p / left
        for i, bit, chips in players:
            if mask & bit:
                continue
            q = scale * chips
            equity[i] += q * prize
            prob[mask | bit] += q
    # Players with no chips finish below everyone with chips, in no particular order.
    busted = [i for i in range(n) if stacks[i] == 0]
    if busted:
        rest = sum(paid[n - len(busted) :])
        for i in busted:
            equity[i] = rest / len(busted)
    return equity


def chip_chop(
    stacks: Sequence[int], prizes: Sequence[int], *, guarantee_last: bool = True
) -> list[Fraction]:
    """Chip chop: each player first gets the lowest prize still open (when `guarantee_last`),
    the rest is shared in proportion to the chips."""
    _check(stacks, prizes)
    n = len(stacks)
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    pool = sum(paid)
    base = min(paid) if guarantee_last else 0
    rest = pool - base * n
    total = sum(stacks)
    return [Fraction(base) + Fraction(rest * s, total) for s in stacks]


# Floating-point shares are put on a grid of a millionth of the rounding unit: what floating
# point adds to an ICM share is orders of magnitude smaller, so a share that is exactly whole or
# exactly tied with another stays so.
GRID = 10**6


def _on_grid(value: Fraction | float, unit: int) -> Fraction:
    """`value` ÷ `unit` as an exact fraction, a float on the nearest point of the grid."""
    if isinstance(value, Fraction):
        return value / unit
    return Fraction(round(value / unit * GRID), GRID)


def round_to_unit(
    values: Sequence[Fraction | float], total: int, unit: int, stacks: Sequence[int]
) -> list[int]:
    """Round shares to multiples of `unit` so they sum to `total` exactly: everyone gets the
    rounded-down share, the units left go to the largest remainders (the bigger stack on a tie),
    and anything smaller than a unit to the chip leader. Floating-point shares (ICM) are first
    put on a grid of a millionth of a unit (`_on_grid`)."""
    if unit < 1:
        raise DealError("the rounding unit must be at least 1")
    grid = [_on_grid(v, unit) for v in values]
    off: Fraction = sum(grid, Fraction(0)) * unit - total
    if abs(off) > Fraction(len(values), 10**5) * unit:
        raise DealError("the shares do not add up to the total")
    floors = [int(g // 1) * unit for g in grid]
    units_left, odd = divmod(total - sum(floors), unit)
    units_left = max(0, min(units_left, len(values)))
    order = sorted(range(len(values)), key=lambda i: (grid[i] % 1, stacks[i], -i), reverse=True)
    for i in order[:units_left]:
        floors[i] += unit
    leader = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    floors[leader] += odd
    return floors


@dataclass(frozen=True)
class DealProposal:
    method: str  # icm | chip_chop | custom
    amounts: tuple[int, ...]  # per player, same order as the stacks
    play_for: int  # left in the pool for the winner of the rest of the game
    total: int  # what the deal distributes (the prizes still open minus `play_for`)


def propose(
    method: str,
    stacks: Sequence[int],
    prizes: Sequence[int],
    *,
    unit: int = 100,
    play_for: int = 0,
    custom: Sequence[int] | None = None,
    chips_in_play: int | None = None,
) -> DealProposal:
    """A deal for the players left. `play_for` is taken off the first prize and stays in play;
    the rest is split by `method`. `chips_in_play`, when given, must equal the sum of the stacks
    (a typo in a stack is caught here)."""
    _check(stacks, prizes)
    if chips_in_play is not None and sum(stacks) != chips_in_play:
        raise DealError(
            f"the stacks add up to {sum(stacks)} chips, but {chips_in_play} are in play",
            "stacks_sum",
            stacks=sum(stacks),
            chips=chips_in_play,
        )
    n = len(stacks)
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    if play_for < 0 or play_for > paid[0] - (paid[1] if n > 1 else 0):
        raise DealError(
            "the amount to play for must lie between 0 and first minus second prize",
            "play_for",
            most=paid[0] - (paid[1] if n > 1 else 0),
        )
    paid[0] -= play_for
    total = sum(paid)
    shares: Sequence[Fraction | float]
    if method == "icm":
        shares = icm_equities(stacks, paid)
    elif method == "chip_chop":
        shares = chip_chop(stacks, paid)
    elif method == "custom":
        if custom is None or len(custom) != n:
            raise DealError("a custom deal needs one amount per player", "custom_missing")
        if any(a < 0 for a in custom):
            raise DealError("amounts cannot be negative", "custom_negative")
        if sum(custom) != total:
            raise DealError(
                f"the amounts add up to {sum(custom)}, not {total}",
                "custom_sum",
                amounts=sum(custom),
                total=total,
            )
        return DealProposal(method, tuple(custom), play_for, total)
    else:
        raise DealError(f"unknown deal method {method!r}")
    return DealProposal(method, tuple(round_to_unit(shares, total, unit, stacks)), play_for, total)


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if len(stacks) < 2:
        raise DealError("a deal needs at least two players")
    if any(s < 0 for s in stacks):
        raise DealError("a stack cannot be negative")
    if sum(stacks) <= 0:
        raise DealError("there are no chips in play")
    if any(p < 0 for p in prizes):
        raise DealError("a prize cannot be negative")
    if any(a < b for a, b in pairwise(prizes)):
        raise DealError("prizes must not rise from one place to the next")
