"""Colour-up: tda-de 24 rounds up, bdpv 6.8 races the odd chips."""

import random
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.domain.chiprace import (
    DECK,
    ChipRaceError,
    Holding,
    card_strength,
    colour_up,
)


class Fixed:
    """A 'shuffle' that puts the given cards on top, in order."""

    def __init__(self, top):
        self.top = top

    def shuffle(self, deck):
        rest = [c for c in deck if c not in self.top]
        deck[:] = [*self.top, *rest]


def test_round_up_changes_full_value_and_rounds_the_rest_up():
    r = colour_up(
        [Holding(1, 7), Holding(2, 4), Holding(3, 0, 5000)],
        removed=25,
        new_value=100,
        method="round_up",
        button=3,
        table_seats=9,
        rng=random.Random(0),
    )
    got = {s.seat: s.new_chips for s in r.seats}
    assert got == {1: 2, 2: 1, 3: 0}  # 175 -> 200, 100 -> 100
    assert r.rules == ("tda-de 24",)
    assert all(s.cards == () for s in r.seats)


def test_race_deals_clockwise_from_left_of_the_button_and_highest_card_wins():
    # Button on seat 4: seat 5 is dealt first, then 8, then 2. Odd chips: 3, 1, 2 (25s into 100s).
    holdings = [Holding(2, 6, 1000), Holding(5, 3, 1000), Holding(8, 5, 1000)]
    top = ["2c", "9d", "3h", "As", "Ah", "Kc"]
    r = colour_up(
        holdings,
        removed=25,
        new_value=100,
        method="race",
        button=4,
        table_seats=9,
        rng=Fixed(top),
    )
    assert [s.seat for s in r.seats] == [5, 8, 2]
    cards = {s.seat: s.cards for s in r.seats}
    assert cards == {5: ("2c", "9d", "3h"), 8: ("As",), 2: ("Ah", "Kc")}
    assert r.winner == 8  # ace of spades beats ace of hearts (bdpv 2.6.1)
    # Odd chips 6 x 25 = 150 -> two chips of 100, rounded up.
    won = {s.seat: s.won for s in r.seats}
    assert won == {5: 0, 8: 2, 2: 0}
    assert {s.seat: s.changed for s in r.seats} == {5: 0, 8: 1, 2: 1}
    assert r.rules == ("bdpv 6.8",)


def test_nobody_is_raced_out():
    r = colour_up(
        [Holding(1, 1, 0), Holding(2, 3, 0)],
        removed=25,
        new_value=100,
        method="race",
        button=2,
        table_seats=6,
        rng=Fixed(["Ac", "2c", "3c", "4c"]),
    )
    seat1, seat2 = sorted(r.seats, key=lambda s: s.seat)
    assert r.winner == 1 and seat1.new_chips == 1 and not seat1.not_raced_out
    assert seat2.new_chips == 1 and seat2.not_raced_out


def test_bad_input():
    kw = dict(button=1, table_seats=9, rng=random.Random(0))
    with pytest.raises(ChipRaceError):
        colour_up([Holding(1, 1)], removed=100, new_value=25, method="race", **kw)
    with pytest.raises(ChipRaceError):
        colour_up([Holding(1, 1)], removed=25, new_value=60, method="race", **kw)
    with pytest.raises(ChipRaceError):
        colour_up([Holding(1, 1), Holding(1, 2)], removed=25, new_value=100, method="race", **kw)
    with pytest.raises(ChipRaceError):
        colour_up([Holding(1, -1)], removed=25, new_value=100, method="race", **kw)
    with pytest.raises(ChipRaceError):
        colour_up([Holding(1, 1)], removed=25, new_value=100, method="coin", **kw)
    with pytest.raises(ChipRaceError, match="two steps"):
        colour_up(
            [Holding(s, 99) for s in range(1, 10)], removed=1, new_value=100, method="race", **kw
        )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=1, max_size=10),
    st.sampled_from([(25, 100), (100, 500), (500, 1000), (1000, 5000)]),
    st.sampled_from(["race", "round_up"]),
    st.integers(1, 10),
)
def test_value_is_never_lost_and_only_rounding_adds(counts, values, method, button):
    removed, new_value = values
    holdings = [Holding(i + 1, c, 0) for i, c in enumerate(counts)]
    per = new_value // removed
    if method == "race" and sum(c % per for c in counts) > 52:
        return
    r = colour_up(
        holdings,
        removed=removed,
        new_value=new_value,
        method=method,
        button=button,
        table_seats=10,
        rng=secrets.SystemRandom(),
    )
    assert r.value_after >= r.value_before
    # Rounding never adds a whole new chip per seat beyond the rounding itself.
    assert r.value_after - r.value_before < new_value * (len(counts) + 1)
    dealt = [c for s in r.seats for c in s.cards]
    assert len(dealt) == len(set(dealt))
    if method == "race" and dealt:
        best = max(dealt, key=card_strength)
        assert best in next(s for s in r.seats if s.seat == r.winner).cards
    for s in r.seats:
        assert s.new_chips >= 1 or s.chips == 0  # nobody raced out
    assert set(DECK) >= set(dealt)


def test_other_chips_from_the_latest_count():
    from rules_engine.domain.chiprace import other_value_from_count

    assert other_value_from_count(None, 3, 25) is None  # no count: not known
    assert other_value_from_count(75, 3, 25) == 0  # the count is all of the odd chips
    assert other_value_from_count(10_075, 3, 25) == 10_000
    assert other_value_from_count(50, 3, 25) is None  # the count is older than the stack
