import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.bounties import BountyError, award, share


def test_fixed_bounty_goes_to_the_eliminator():
    a = award("fixed", 5000, [7])
    assert a.cash == {7: 5000} and a.added == {7: 0}


def test_progressive_half_cash_half_onto_the_eliminators_head():
    a = award("progressive", 5000, [7])
    assert a.cash == {7: 2500} and a.added == {7: 2500}
    # An odd amount: the cash half gets the odd unit.
    a = award("progressive", 2550, [7], unit=100)
    assert a.cash == {7: 1350} and a.added == {7: 1200}


def test_split_bounty_between_two_eliminators():
    a = award("progressive", 5000, [3, 9], unit=100)
    assert a.cash == {3: 1300, 9: 1200} and a.added == {3: 1300, 9: 1200}


def test_no_bounty_tournament_pays_nothing():
    assert award("none", 5000, [1]).total == 0


def test_bad_input():
    with pytest.raises(BountyError):
        award("fixed", 100, [])
    with pytest.raises(BountyError):
        award("fixed", 100, [1, 1])
    with pytest.raises(BountyError):
        award("mystery", 100, [1])  # type: ignore[arg-type]


@given(
    st.sampled_from(["fixed", "progressive"]),
    st.integers(0, 10**7),
    st.lists(st.integers(1, 500), min_size=1, max_size=4, unique=True),
    st.sampled_from([1, 50, 100, 500]),
)
def test_awards_sum_to_the_bounty(kind, bounty, eliminators, unit):
    a = award(kind, bounty, eliminators, unit)
    assert a.total == bounty
    assert all(v >= 0 for v in [*a.cash.values(), *a.added.values()])
    shares = share(bounty, eliminators, unit)
    assert sum(shares.values()) == bounty
    others = {shares[e] for e in eliminators[1:]}
    assert len(others) <= 1  # everyone but the first gets exactly the same
    assert all(shares[eliminators[0]] >= v for v in others)
    assert all(v % unit == 0 for v in others)
