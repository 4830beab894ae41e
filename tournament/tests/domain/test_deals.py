from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.domain.deals import (
    DealError,
    chip_chop,
    icm_equities,
    propose,
    round_to_unit,
)


def test_icm_three_players_matches_the_harville_formula():
    # Stacks 5,000 / 3,000 / 2,000, prizes 50 / 30 / 20 (the textbook example).
    eq = icm_equities([5000, 3000, 2000], [5000, 3000, 2000])
    # A: first 1/2; second 3/10·5/7 + 2/10·5/8 = 19/56; third 9/56.
    assert eq[0] == Fraction(5000, 2) + 3000 * Fraction(19, 56) + 2000 * Fraction(9, 56)
    assert round(float(eq[0])) == 3839  # $38.39
    assert round(float(eq[1])) == 3275  # $32.75
    assert round(float(eq[2])) == 2886  # $28.86
    assert sum(eq) == 10000


def test_icm_matches_the_encyclopedia_example():
    # 50 % / 30 % / 20 % of the chips, 70 and 30 units paid: A ≈ 45, B ≈ 32, C ≈ 23 (the
    # Malmuth–Harville worked example in the encyclopedia article on ICM).
    eq = icm_equities([50, 30, 20], [7000, 3000])
    assert [round(float(e) / 100) for e in eq] == [45, 32, 23]
    assert sum(eq) == 10000


def test_equal_stacks_share_equally_and_heads_up_is_linear():
    eq = icm_equities([1000] * 4, [400, 300, 200, 100])
    assert eq == [Fraction(250)] * 4
    eq = icm_equities([3000, 1000], [700, 300])
    assert eq == [Fraction(300 + 400 * 3 // 4), Fraction(300 + 400 // 4)]


def test_ten_players_is_exact_and_fast_enough():
    stacks = [120, 95, 80, 60, 55, 40, 30, 25, 15, 10]
    prizes = [30000, 20000, 14000, 10000, 8000, 6000, 5000, 4000, 3000]
    eq = icm_equities([s * 1000 for s in stacks], prizes)
    assert sum(eq) == sum(prizes)
    assert eq == sorted(eq, reverse=True)


def test_chip_chop():
    assert chip_chop([6000, 4000], [1000, 600]) == [Fraction(600 + 240), Fraction(600 + 160)]
    assert chip_chop([6000, 4000], [1000, 600], guarantee_last=False) == [960, 640]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(1, 10_000), min_size=2, max_size=6),
    st.lists(st.integers(1, 500), min_size=6, max_size=6),
    st.sampled_from([1, 100, 500]),
    st.sampled_from(["icm", "chip_chop"]),
)
def test_deals_sum_exactly(stacks, prize_units, unit, method):
    prizes = sorted((p * 100 for p in prize_units), reverse=True)
    deal = propose(method, stacks, prizes, unit=unit)
    assert sum(deal.amounts) == deal.total == sum(prizes[: len(stacks)])
    assert all(a >= 0 for a in deal.amounts)


def test_play_for_and_custom_and_bad_input():
    deal = propose("icm", [5000, 5000], [10000, 6000], play_for=2000)
    assert deal.total == 14000 and deal.amounts == (7000, 7000)
    propose("custom", [1, 1], [1000, 600], custom=[900, 700])
    with pytest.raises(DealError):
        propose("custom", [1, 1], [1000, 600], custom=[900, 600])
    with pytest.raises(DealError):
        propose("icm", [5000, -1], [1000, 600])
    with pytest.raises(DealError):
        propose("icm", [5000, 4000], [1000, 600], chips_in_play=10000)
    with pytest.raises(DealError):
        propose("icm", [5000, 4000], [1000, 600], play_for=900)
    with pytest.raises(DealError):
        propose("magic", [5000, 4000], [1000, 600])
    with pytest.raises(DealError):
        icm_equities([1] * 11, [1] * 11)


def test_rounding_keeps_the_total():
    shares = [Fraction(1001, 3), Fraction(1001, 3), Fraction(1001, 3) - 1]
    assert sum(round_to_unit(shares, 1000, 100, [3, 2, 1])) == 1000
