"""Pots, the uncalled bet and splitting with odd chips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.domain.pots import (
    Pot,
    PotError,
    clockwise_from_button,
    pots_from,
    split_pot,
)


def test_one_all_in_makes_a_side_pot():
    # A all-in for 300; B and C put in 1,000 each.
    r = pots_from({1: 300, 2: 1000, 3: 1000})
    assert r.pots == (Pot(900, frozenset({1, 2, 3})), Pot(1400, frozenset({2, 3})))
    assert r.returned is None


def test_uncalled_bet_goes_back():
    r = pots_from({1: 300, 2: 1000, 3: 600}, folded=[3])
    assert r.returned == (2, 400)
    assert r.pots == (Pot(900, frozenset({1, 2})), Pot(600, frozenset({2})))
    assert r.total == 1900


def test_folded_chips_stay_in_the_pots_they_reached():
    r = pots_from({1: 200, 2: 500, 3: 500, 4: 350}, folded=[4])
    assert r.pots == (Pot(800, frozenset({1, 2, 3})), Pot(750, frozenset({2, 3})))


def test_several_all_ins():
    r = pots_from({1: 100, 2: 250, 3: 400, 4: 400})
    assert [p.amount for p in r.pots] == [400, 450, 300]
    assert [sorted(p.eligible) for p in r.pots] == [[1, 2, 3, 4], [2, 3, 4], [3, 4]]


def test_bad_input():
    with pytest.raises(PotError):
        pots_from({1: -1, 2: 5})
    with pytest.raises(PotError):
        pots_from({1: 5, 2: 5}, folded=[1, 2])
    with pytest.raises(PotError):
        pots_from({1: 5}, folded=[7])


def test_split_to_the_smallest_chip_odd_chip_left_of_the_button():
    # Dealer course example: pot 35,000, smallest chip 1,000, two winners: 18,000 and 17,000
    # (the one left of the button gets the odd chip).
    assert split_pot(35000, [4, 7], smallest_chip=1000) == {4: 18000, 7: 17000}
    # Three winners, two odd chips: all to the first (tda-de 20, bdpv) or one each.
    assert split_pot(500, [2, 5, 8], smallest_chip=100) == {2: 300, 5: 100, 8: 100}
    assert split_pot(500, [2, 5, 8], smallest_chip=100, odd_chips="one_each") == {
        2: 200,
        5: 200,
        8: 100,
    }


def test_clockwise_from_button():
    assert clockwise_from_button([1, 4, 7, 9], button=5, table_seats=9) == [7, 9, 1, 4]


@given(
    st.dictionaries(st.integers(1, 10), st.integers(0, 10_000), min_size=2, max_size=10),
    st.data(),
)
def test_pots_sum_to_what_was_bet(contributions, data):
    seats = sorted(contributions)
    folded = data.draw(st.sets(st.sampled_from(seats), max_size=len(seats) - 1))
    r = pots_from(contributions, folded)
    assert r.total == sum(contributions.values())
    for pot in r.pots:
        assert pot.eligible and not (pot.eligible & folded)
        assert pot.amount > 0
    # Pots get smaller groups of players as they go up.
    for lower, upper in zip(r.pots, r.pots[1:], strict=False):
        assert upper.eligible < lower.eligible


@given(
    st.integers(0, 10**7),
    st.lists(st.integers(1, 10), min_size=1, max_size=9, unique=True),
    st.sampled_from([1, 5, 25, 100, 1000]),
    st.sampled_from(["first", "one_each"]),
)
def test_split_sums_and_is_fair(amount, winners, chip, odd):
    shares = split_pot(amount, winners, smallest_chip=chip, odd_chips=odd)
    assert sum(shares.values()) == amount
    base = [v // chip for v in shares.values()]
    assert max(base) - min(base) <= (len(winners) if odd == "first" else 1)
