from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.payouts import (
    PayoutError,
    default_places_paid,
    payout_table,
    prize_pool,
    validate_manual_payouts,
)


@given(
    entries=st.integers(min_value=2, max_value=30_000),
    buy_in_units=st.integers(min_value=1, max_value=100),
    unit=st.sampled_from([1, 100, 500, 1000]),
)
def test_payouts_sum_exactly_and_never_rise(entries, buy_in_units, unit):
    pool = entries * buy_in_units * unit
    table = payout_table(pool, entries, unit=unit)
    assert sum(table) == pool
    assert all(a % unit == 0 for a in table)
    assert all(a >= b for a, b in pairwise(table))
    assert all(a > 0 for a in table)
    assert len(table) <= default_places_paid(entries)


def test_every_field_size_from_2_to_30000_sums_exactly():
    for entries in range(2, 30_001, 7):
        pool = entries * 5000
        table = payout_table(pool, entries, unit=100)
        assert sum(table) == pool, entries


def test_roughly_top_15_percent_paid_and_top_heavy():
    table = payout_table(100 * 10_000, 100, unit=100)
    assert len(table) == 15
    assert table[0] > 2 * table[2]
    assert table[0] < sum(table) * 0.35


def test_small_fields():
    assert payout_table(3000, 3, unit=100) == (3000,)
    assert len(payout_table(10_000, 10, unit=100)) == 3


def test_a_pool_that_is_no_multiple_of_the_unit_pays_the_odd_cents_to_first():
    table = payout_table(884_096, 201, unit=100)
    assert sum(table) == 884_096
    assert table[0] % 100 == 96 and all(a % 100 == 0 for a in table[1:])
    assert all(a >= b for a, b in pairwise(table))
    assert payout_table(1050, 10, unit=100) == (750, 200, 100)


@given(st.integers(1, 10**8), st.integers(1, 3000), st.sampled_from([1, 100, 500]))
def test_every_pool_is_paid_to_the_cent_and_only_first_place_takes_odd_cents(pool, entries, unit):
    table = payout_table(pool, entries, unit=unit)
    assert sum(table) == pool
    assert all(a % unit == 0 for a in table[1:])
    assert all(a >= b for a, b in pairwise(table))


def test_guarantee():
    assert prize_pool(50_000, 100_000) == 100_000
    assert prize_pool(150_000, 100_000) == 150_000


def test_manual_payouts():
    validate_manual_payouts([500, 300, 200], 1000)
    for bad in ([500, 600], [1000, 0], [600, 300]):
        with pytest.raises(PayoutError):
            validate_manual_payouts(bad, 1000 if bad != [500, 600] else 1100)


def test_satellite_seats_and_remainder():
    from tournament.domain.payouts import satellite_payouts

    assert satellite_payouts(200_000, 55_000) == (3, 35_000, [55_000] * 3 + [35_000])
    assert satellite_payouts(110_000, 55_000) == (2, 0, [55_000, 55_000])
    assert satellite_payouts(30_000, 55_000) == (0, 30_000, [30_000])


@given(st.integers(0, 10**7), st.integers(10**4, 10**7))
def test_satellite_pays_exactly_the_pool(pool, seat):
    from tournament.domain.payouts import satellite_payouts

    seats, rest, amounts = satellite_payouts(pool, seat)
    assert sum(amounts) == pool and rest < seat and amounts.count(seat) >= seats
