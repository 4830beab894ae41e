"""Prize pool and payout tables, exact in minor units."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise


class PayoutError(ValueError):
    """A payout table that cannot be made or is not valid."""


def prize_pool(contributions: int, guarantee: int | None = None) -> int:
    """What is paid out: the players' prize contributions, or the guarantee if that is larger."""
    if contributions < 0:
        raise PayoutError("contributions cannot be negative")
    return max(contributions, guarantee or 0)


def default_places_paid(entries: int) -> int:
    """About 15% of the field is paid; small fields pay 1 to 3 places."""
    if entries <= 0:
        return 0
    if entries <= 4:
        return 1
    if entries <= 7:
        return 2
    if entries <= 12:
        return 3
    return max(3, math.ceil(entries * 0.15))


def default_weights(places: int) -> list[float]:
    """Share per place, falling like 1/place^1.1: steep at the top, long flat tail."""
    return [1 / (i**1.1) for i in range(1, places + 1)]


def payout_table(
    pool: int,
    entries: int,
    unit: int = 100,
    places: int | None = None,
    weights: Sequence[float] | None = None,
) -> tuple[int, ...]:
    """Prize per place (index 0 = 1st) that sums exactly to `pool`.

    Every prize is a multiple of `unit`; what rounding leaves over goes to 1st place; prizes never
    rise from one place to the next. Places that would round to nothing are not paid. A pool
    that is no multiple of the unit (a staff fee withheld in percent leaves cents) pays the odd
    cents to 1st place too: every other prize stays a multiple of the unit.

    The default schedule is kept for the last few fields asked: every bust's board and bubble
    check ask it again with the same pool and field (4,500 places at 30,000 entries: 3 ms).
    """
    if weights is None:
        return _default_table(pool, entries, unit, places)
    return _table(pool, entries, unit, places, weights)


@lru_cache(maxsize=64)
def _default_table(pool: int, entries: int, unit: int, places: int | None) -> tuple[int, ...]:
    return _table(pool, entries, unit, places, None)


def _table(
    pool: int, entries: int, unit: int, places: int | None, weights: Sequence[float] | None
) -> tuple[int, ...]:
    if pool < 0 or entries < 0:
        raise PayoutError("pool and entries cannot be negative")
    if unit < 1:
        raise PayoutError("the rounding unit must be at least 1")
    if pool == 0 or entries == 0:
        return ()
    count = default_places_paid(entries) if places is None else places
    if count < 1:
        raise PayoutError("at least one place must be paid")
    count = min(count, entries)
    shares = list(weights) if weights is not None else default_weights(count)
    if len(shares) < count or any(w < 0 for w in shares[:count]):
        raise PayoutError("need one non-negative weight per paid place")
    shares = shares[:count]
    if any(a < b for a, b in pairwise(shares)):
        raise PayoutError("weights must not rise from one place to the next")
    total = sum(shares)
    if total <= 0:
        raise PayoutError("the weights are all zero")
    units = pool // unit
    amounts = [math.floor(units * w / total) * unit for w in shares]
    amounts = [a for a in amounts if a > 0] or [0]
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


def validate_manual_payouts(amounts: Sequence[int], pool: int) -> None:
    """A director's own table: positive, never rising from one place to the next, summing to
    the pool."""
    if not amounts:
        raise PayoutError("no places")
    if any(a <= 0 for a in amounts):
        raise PayoutError("every prize must be positive")
    if any(a < b for a, b in pairwise(amounts)):
        raise PayoutError("a lower place cannot win more than a higher one")
    if sum(amounts) != pool:
        raise PayoutError(f"sum {sum(amounts)} is not the pool {pool}")


def satellite_payouts(pool: int, seat_value: int) -> tuple[int, int, list[int]]:
    """A satellite pays seats to a target event: as many seats of `seat_value` as the pool
    buys, and what is left as a cash prize to the next place. Returns (seats, remainder,
    amount per place)."""
    if pool < 0:
        raise PayoutError("the prize pool cannot be negative")
    if seat_value <= 0:
        raise PayoutError("a seat must be worth something")
    seats, remainder = divmod(pool, seat_value)
    return seats, remainder, [seat_value] * seats + ([remainder] if remainder else [])
