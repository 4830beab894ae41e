import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.eliminations import (
    Bust,
    EliminationError,
    rank_simultaneous_busts,
    split_shared_prize,
)


def test_single_bust_takes_the_next_place():
    assert rank_simultaneous_busts(
        [Bust(7, 1000)], ruleset="tda-de", hand_for_hand=False, players_remaining_before=10
    ) == {7: 10}


def test_larger_starting_stack_finishes_higher():
    places = rank_simultaneous_busts(
        [Bust(1, 500), Bust(2, 3000), Bust(3, 1200)],
        ruleset="tda-de",
        hand_for_hand=False,
        players_remaining_before=20,
    )
    assert places == {2: 18, 3: 19, 1: 20}


def test_bdpv_equal_stacks_closer_to_button_ranks_higher():
    places = rank_simultaneous_busts(
        [Bust(1, 800, seats_from_button=5), Bust(2, 800, seats_from_button=2)],
        ruleset="bdpv",
        hand_for_hand=False,
        players_remaining_before=9,
    )
    assert places == {2: 8, 1: 9}


def test_tda_hand_for_hand_shares_the_place_across_tables():
    places = rank_simultaneous_busts(
        [Bust(1, 800, table=3), Bust(2, 5000, table=7)],
        ruleset="tda-de",
        hand_for_hand=True,
        players_remaining_before=19,
    )
    assert places == {1: 18, 2: 18}


def test_tda_equal_stacks_share():
    places = rank_simultaneous_busts(
        [Bust(1, 800), Bust(2, 800), Bust(3, 100)],
        ruleset="tda-de",
        hand_for_hand=False,
        players_remaining_before=12,
    )
    assert places == {1: 10, 2: 10, 3: 12}


def test_refuses_impossible_input():
    with pytest.raises(EliminationError):
        rank_simultaneous_busts(
            [Bust(1), Bust(2)], ruleset="bdpv", hand_for_hand=False, players_remaining_before=2
        )
    with pytest.raises(EliminationError):
        rank_simultaneous_busts(
            [Bust(1), Bust(1)], ruleset="bdpv", hand_for_hand=False, players_remaining_before=5
        )


@given(
    payouts=st.lists(st.integers(1, 10_000).map(lambda x: x * 100), min_size=1, max_size=20),
    place=st.integers(1, 25),
    count=st.integers(1, 6),
    unit=st.sampled_from([1, 100, 500]),
)
def test_shared_prize_split_is_exact(payouts, place, count, unit):
    payouts = sorted(payouts, reverse=True)
    shares = split_shared_prize([place] * count, payouts, unit)
    expected = sum(payouts[p - 1] for p in range(place, place + count) if p <= len(payouts))
    assert sum(shares) == expected
    assert max(shares) - min(shares) <= unit + expected % unit
