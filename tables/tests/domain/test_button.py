import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.button import (
    Blinds,
    ButtonError,
    due_big_blind_next,
    first_hand,
    next_hand,
    waiting_seats,
    worst_empty_seat,
)


def test_first_hand_and_normal_rotation():
    b = first_hand(9, {1, 3, 5, 7}, button=1)
    assert b == Blinds(1, 3, 5)
    assert next_hand(9, {1, 3, 5, 7}, b) == Blinds(3, 5, 7)


def test_big_blind_bust_gives_a_dead_small_blind():
    # tda-de 32-33: the big blind moves on; the seat of the busted big blind is a dead small
    # blind, and the button moves to the old small blind.
    b = next_hand(9, {1, 2, 4, 5}, Blinds(1, 2, 3))
    assert b == Blinds(button=2, small_blind=3, big_blind=4)
    # Next hand the button is dead (seat 3 is empty).
    assert next_hand(9, {1, 2, 4, 5}, b) == Blinds(button=3, small_blind=4, big_blind=5)


def test_small_blind_bust_gives_a_dead_button():
    b = next_hand(9, {1, 3, 4}, Blinds(1, 2, 3))
    assert b == Blinds(button=2, small_blind=3, big_blind=4)


def test_heads_up_button_is_small_blind_and_no_double_big_blind():
    # Three players, the big blind's opponents bust: the last big blind gets the button.
    b = next_hand(9, {3, 7}, Blinds(1, 3, 7))
    assert b.big_blind == 3 and b.button == b.small_blind == 7
    b2 = next_hand(9, {3, 7}, b)
    assert b2.big_blind == 7 and b2.button == 3


def test_waiting_seats_are_between_button_and_small_blind():
    assert waiting_seats(9, Blinds(2, 5, 6)) == {2, 3, 4}
    assert waiting_seats(9, Blinds(9, 1, 2)) == {9}
    assert waiting_seats(9, Blinds(4, 4, 6)) == frozenset()


def test_due_big_blind_and_worst_seat():
    players = {1, 2, 3, 6, 8}
    blinds = Blinds(1, 2, 3)
    assert due_big_blind_next(9, players, blinds) == 6
    assert worst_empty_seat(9, players, blinds) == 4
    with pytest.raises(ButtonError):
        worst_empty_seat(2, {1, 2}, Blinds(1, 1, 2))


def test_refuses_impossible_tables():
    with pytest.raises(ButtonError):
        first_hand(9, {1}, 1)
    with pytest.raises(ButtonError):
        first_hand(9, {1, 2}, 5)
    with pytest.raises(ButtonError):
        first_hand(11, {1, 2}, 1)


@given(
    st.integers(2, 10).flatmap(
        lambda size: st.tuples(
            st.just(size),
            st.sets(st.integers(1, size), min_size=2, max_size=size),
            st.lists(st.integers(1, size), max_size=30),
        )
    )
)
def test_big_blind_always_advances_and_nobody_posts_it_twice(case):
    size, players, busts = case
    players = set(players)
    blinds = first_hand(size, players, min(players))
    last_bb = blinds.big_blind
    for bust in busts:
        if len(players) > 2 and bust in players:
            players.discard(bust)
        blinds = next_hand(size, players, blinds)
        assert blinds.big_blind in players
        assert blinds.big_blind != last_bb
        if len(players) == 2:
            assert blinds.button == blinds.small_blind and blinds.button in players
        else:
            assert blinds.small_blind != blinds.big_blind
        last_bb = blinds.big_blind
