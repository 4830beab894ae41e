from fractions import Fraction
from itertools import permutations

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


def harville(stacks, prizes):
    """An independent, exact Malmuth–Harville computation: every finishing order, its chance
    as the product of each player's share of the chips still in play (fractions)."""
    n = len(stacks)
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    live = [i for i in range(n) if stacks[i] > 0]
    out = [Fraction(0)] * n
    for order in permutations(live):
        chance, left = Fraction(1), sum(stacks)
        for i in order:
            chance *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            out[i] += chance * paid[place]
    busted = [i for i in range(n) if stacks[i] == 0]
    for i in busted:
        out[i] = Fraction(sum(paid[n - len(busted) :]), len(busted))
    return out


def near(values, exact):
    return all(
        abs(Fraction(v) - e) < Fraction(1, 10**7) for v, e in zip(values, exact, strict=True)
    )


def test_icm_three_players_matches_the_harville_formula():
    # Stacks 5,000 / 3,000 / 2,000, prizes 50 / 30 / 20 (the textbook example).
    eq = icm_equities([5000, 3000, 2000], [5000, 3000, 2000])
    # A: first 1/2; second 3/10·5/7 + 2/10·5/8 = 19/56; third 9/56.
    a = Fraction(5000, 2) + 3000 * Fraction(19, 56) + 2000 * Fraction(9, 56)
    assert abs(Fraction(eq[0]) - a) < Fraction(1, 10**9)
    assert round(float(eq[0])) == 3839  # $38.39
    assert round(float(eq[1])) == 3275  # $32.75
    assert round(float(eq[2])) == 2886  # $28.86
    assert abs(sum(eq) - 10000) < 1e-9


def test_icm_matches_the_encyclopedia_example():
    # 50 % / 30 % / 20 % of the chips, 70 and 30 units paid: A ≈ 45, B ≈ 32, C ≈ 23 (the
    # Malmuth–Harville worked example in the encyclopedia article on ICM).
    eq = icm_equities([50, 30, 20], [7000, 3000])
    assert [round(float(e) / 100) for e in eq] == [45, 32, 23]
    assert abs(sum(eq) - 10000) < 1e-9


def test_equal_stacks_share_equally_and_heads_up_is_linear():
    eq = icm_equities([1000] * 4, [400, 300, 200, 100])
    assert near(eq, [Fraction(250)] * 4)
    assert propose("icm", [1000] * 4, [400, 300, 200, 100], unit=1).amounts == (250,) * 4
    eq = icm_equities([3000, 1000], [700, 300])
    assert near(eq, [Fraction(300 + 400 * 3 // 4), Fraction(300 + 400 // 4)])


def test_ten_players_is_exact_and_fast_enough():
    stacks = [120, 95, 80, 60, 55, 40, 30, 25, 15, 10]
    prizes = [30000, 20000, 14000, 10000, 8000, 6000, 5000, 4000, 3000]
    eq = icm_equities([s * 1000 for s in stacks], prizes)
    assert abs(sum(eq) - sum(prizes)) < 1e-6
    assert eq == sorted(eq, reverse=True)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 50_000), min_size=2, max_size=7).filter(lambda s: sum(s) > 0),
    st.lists(st.integers(0, 200_000), min_size=1, max_size=7),
    st.sampled_from([1, 100, 500]),
)
def test_icm_amounts_equal_an_exact_computation_to_the_cent(stacks, prize_list, unit):
    prizes = sorted(prize_list, reverse=True)
    deal = propose("icm", stacks, prizes, unit=unit)
    exact = harville(stacks, prizes)
    assert near(icm_equities(stacks, prizes), exact)
    assert deal.amounts == tuple(round_to_unit(exact, deal.total, unit, stacks))


def test_ten_players_equal_the_exact_computation_to_the_cent():
    stacks = [120_500, 95_000, 80_250, 60_000, 55_100, 40_000, 30_000, 25_025, 15_000, 10_000]
    prizes = [3_000_033, 2_000_017, 1_400_000, 1_000_000, 800_000, 600_000, 500_000, 400_000]
    deal = propose("icm", stacks, prizes, unit=1)
    # At ten the permutations (10! orders) are too slow: the exact subset sum with fractions
    # (the computation before floating point) is the reference.
    n, total = len(stacks), sum(stacks)
    paid = prizes + [0] * (n - len(prizes))
    prob, equity = {0: Fraction(1)}, [Fraction(0)] * n
    for mask in range(1 << n):
        p = prob.get(mask)
        if not p or mask.bit_count() >= n:
            continue
        left = total - sum(stacks[i] for i in range(n) if mask >> i & 1)
        for i in range(n):
            if not mask >> i & 1:
                q = p * Fraction(stacks[i], left)
                equity[i] += q * paid[mask.bit_count()]
                prob[mask | 1 << i] = prob.get(mask | 1 << i, Fraction(0)) + q
    assert near(icm_equities(stacks, prizes), equity)
    assert deal.amounts == tuple(round_to_unit(equity, deal.total, 1, stacks))


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
