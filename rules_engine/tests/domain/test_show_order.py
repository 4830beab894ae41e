"""Who shows first at the showdown (tda-de 16-17, bdpv 2.5.5, 6.27)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.domain.betting import Action, Hand, Kind
from rules_engine.domain.pots import clockwise_from_button
from rules_engine.domain.rulesets import RULES
from rules_engine.domain.show_order import FirstBecause, ShowOrderError, show_order
from rules_engine.tests.domain.test_betting import played_hands


def test_17_the_last_aggressor_shows_first_then_clockwise():
    # Nine-handed, button 4; seats 2, 6 and 8 reach the river, seat 8 bets, 2 and 6 call.
    o = show_order([2, 6, 8], button=4, table_seats=9, aggressor=8)
    assert o.order == (8, 2, 6) and o.first == 8
    assert o.first_because == FirstBecause.LAST_AGGRESSOR
    assert o.rules == ("tda-de 17", "tda-de 13") and o.face_up == ()
    assert not o.floor_sets_order


def test_17_no_bet_on_the_last_round_first_left_of_the_button():
    o = show_order([2, 6, 8], button=4, table_seats=9)
    assert o.order == (6, 8, 2)
    assert o.first_because == FirstBecause.FIRST_LEFT_OF_BUTTON
    assert o.rules[0] == "tda-de 17"


def test_17_the_button_shows_last_and_a_dead_button_is_skipped():
    assert show_order([1, 5, 9], button=9, table_seats=9).order == (1, 5, 9)
    # The button seat is empty (dead button): the first seat after it starts.
    assert show_order([3, 7], button=2, table_seats=9).order == (3, 7)


def test_17_heads_up_the_player_out_of_position_shows_first_after_a_check():
    # Heads-up the button is the small blind and acts last after the flop (34): the other
    # player would act first, so without a river bet they show first.
    assert show_order([3, 6], button=6, table_seats=6).first == 3


def test_16_with_an_all_in_every_hand_goes_face_up():
    o = show_order([2, 6, 8], button=4, table_seats=9, aggressor=6, all_in=[2])
    assert o.all_face_up and o.face_up == (6, 8, 2)
    assert o.rules == ("tda-de 16",)
    assert o.first == 6  # where the dealer starts turning them over


def test_bdpv_2_5_5_the_last_bettor_shows_first():
    o = show_order([2, 6, 8], button=4, table_seats=9, aggressor=2, ruleset_id="bdpv")
    assert o.order == (2, 6, 8) and o.rules == ("bdpv 2.5.5", "bdpv 2.5.1")
    assert not o.floor_sets_order


def test_bdpv_without_a_bet_the_book_is_silent_and_the_floor_sets_the_order():
    o = show_order([2, 6, 8], button=4, table_seats=9, ruleset_id="bdpv")
    assert o.floor_sets_order and o.order == (6, 8, 2)
    assert o.rules[0] == "bdpv 1.1.1"


def test_bdpv_6_27_all_face_up_only_when_at_most_one_player_has_chips():
    # All but one all-in: no more betting, every hand is shown.
    o = show_order([2, 6, 8], button=4, table_seats=9, all_in=[2, 6], ruleset_id="bdpv")
    assert o.all_face_up and o.rules == ("bdpv 6.27",)
    # Two players still had chips and bet a side pot: the showing order applies to all.
    o = show_order([2, 6, 8], button=4, table_seats=9, aggressor=8, all_in=[2], ruleset_id="bdpv")
    assert o.face_up == () and o.order == (8, 2, 6) and o.rules[0] == "bdpv 2.5.5"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": [3], "button": 1, "table_seats": 9}, "two or more"),
        ({"seats": [3, 3], "button": 1, "table_seats": 9}, "twice"),
        ({"seats": [3, 11], "button": 1, "table_seats": 9}, "seat 11"),
        ({"seats": [3, 4], "button": 10, "table_seats": 9}, "button"),
        ({"seats": [3, 4], "button": 1, "table_seats": 11}, "2 to 10"),
        ({"seats": [3, 4], "button": 1, "table_seats": 9, "aggressor": 5}, "not in the hand"),
        ({"seats": [3, 4], "button": 1, "table_seats": 9, "all_in": [5]}, "not in the hand"),
        ({"seats": [3, 4], "button": 1, "table_seats": 9, "ruleset_id": "wsop"}, "ruleset"),
    ],
)
def test_impossible_showdowns_are_refused(kwargs, message):
    seats = kwargs.pop("seats")
    with pytest.raises(ShowOrderError, match=message):
        show_order(seats, **kwargs)


@st.composite
def showdowns(draw):
    size = draw(st.integers(2, 10))
    seats = draw(st.lists(st.integers(1, size), min_size=2, max_size=size, unique=True))
    button = draw(st.integers(1, size))
    aggressor = draw(st.one_of(st.none(), st.sampled_from(seats)))
    all_in = draw(st.lists(st.sampled_from(seats), unique=True, max_size=len(seats)))
    ruleset = draw(st.sampled_from(["tda-de", "bdpv"]))
    return seats, button, size, aggressor, all_in, ruleset


@given(showdowns())
def test_property_everyone_shows_once_clockwise_from_the_right_player(case):
    seats, button, size, aggressor, all_in, ruleset = case
    o = show_order(
        seats,
        button=button,
        table_seats=size,
        aggressor=aggressor,
        all_in=all_in,
        ruleset_id=ruleset,
    )
    assert sorted(o.order) == sorted(seats)
    clockwise = clockwise_from_button(seats, button, size)
    start = clockwise.index(o.first)
    assert list(o.order) == clockwise[start:] + clockwise[:start]
    if aggressor is not None:
        assert o.first == aggressor
    else:
        assert o.first == clockwise[0]
    # Face up is all or nothing, and follows the ruleset's all-in rule.
    assert o.face_up in ((), tuple(clockwise))
    with_chips = set(seats) - set(all_in)
    expected = bool(all_in) and (ruleset == "tda-de" or len(with_chips) <= 1)
    assert o.all_face_up == expected
    assert o.rules and all(rule in RULES for rule in o.rules)
    assert all(rule.startswith(ruleset) for rule in o.rules)


@given(showdowns(), st.integers(1, 9))
def test_property_turning_the_table_turns_the_order(case, shift):
    """Moving every seat and the button the same number of places round the table moves the
    order with them: only positions relative to the button matter."""
    seats, button, size, aggressor, all_in, ruleset = case

    def turn(s: int) -> int:
        return (s - 1 + shift) % size + 1

    o = show_order(
        seats,
        button=button,
        table_seats=size,
        aggressor=aggressor,
        all_in=all_in,
        ruleset_id=ruleset,
    )
    turned = show_order(
        [turn(s) for s in seats],
        button=turn(button),
        table_seats=size,
        aggressor=None if aggressor is None else turn(aggressor),
        all_in=[turn(s) for s in all_in],
        ruleset_id=ruleset,
    )
    assert turned.order == tuple(turn(s) for s in o.order)
    assert turned.rules == o.rules


def test_last_aggressor_from_the_betting_state():
    h = Hand.start([(1, 5000), (2, 5000), (3, 5000)], button=3, small_blind=50, big_blind=100)
    for action in (Action(Kind.CALL), Action(Kind.CALL), Action(Kind.CHECK)):  # preflop
        h.apply(action)
    h.apply(Action(Kind.BET, 300))  # flop: seat 1 bets, 2 raises, 3 and 1 call
    h.apply(Action(Kind.BET, 900))
    h.apply(Action(Kind.CALL))
    h.apply(Action(Kind.CALL))
    assert h.last_aggressor() == 2
    for _ in range(3):  # turn: checked round
        h.apply(Action(Kind.CHECK))
    assert h.last_aggressor() is None


@settings(max_examples=200)
@given(played_hands())
def test_property_the_last_aggressor_is_still_in_the_hand(played):
    """Nobody can raise after the last aggressor, so they never fold: a hand played to a
    showdown always gives a valid showing order."""
    h, _chips = played
    live = [p.seat for p in h.players if not p.folded]
    if len(live) < 2:
        return
    aggressor = h.last_aggressor()
    o = show_order(
        live,
        button=h.button,
        table_seats=9,
        aggressor=aggressor,
        all_in=[p.seat for p in h.players if p.all_in],
    )
    assert o.first == (aggressor if aggressor is not None else live[0])
