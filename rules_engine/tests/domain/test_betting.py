"""No-Limit betting: blinds, turn order, call amounts, minimum raises, short all-ins."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.domain.betting import Action, BettingError, Hand, Kind, Street
from rules_engine.domain.pots import pots_from

FOLD, CHECK, CALL = Action(Kind.FOLD), Action(Kind.CHECK), Action(Kind.CALL)


def bet(to: int) -> Action:
    return Action(Kind.BET, to)


def ring(*stacks: int, button: int | None = None, **kw) -> Hand:
    seats = [(i + 1, s) for i, s in enumerate(stacks)]
    return Hand.start(
        seats,
        button=button or len(stacks),
        small_blind=kw.pop("sb", 50),
        big_blind=kw.pop("bb", 100),
        **kw,
    )


def test_blinds_and_first_to_act():
    h = ring(10_000, 10_000, 10_000, 10_000)  # button seat 4: SB 1, BB 2, UTG 3
    o = h.options()
    assert (o.seat, o.call, o.min_to, o.can_check) == (3, 100, 200, False)
    assert h.contributions() == {1: 50, 2: 100, 3: 0, 4: 0}


def test_big_blind_has_the_option_and_the_flop_starts_left_of_the_button():
    h = ring(10_000, 10_000, 10_000)
    h.apply(CALL)  # seat 3 (button) calls
    h.apply(CALL)  # small blind completes
    o = h.options()
    assert o.seat == 2 and o.can_check and o.can_raise
    h.apply(CHECK)
    assert h.street == Street.FLOP
    o = h.options()
    assert o.seat == 1 and o.can_check and o.min_to == 100


def test_heads_up_button_is_small_blind_and_acts_first_preflop_last_after():
    h = ring(5000, 5000, button=1)  # tda-de 34
    assert h.contributions() == {1: 50, 2: 100}
    assert h.options().seat == 1
    h.apply(CALL)
    h.apply(CHECK)
    assert h.street == Street.FLOP and h.options().seat == 2


def test_minimum_raise_is_the_last_full_raise():
    h = ring(10_000, 10_000, 10_000, 10_000)
    h.apply(bet(300))  # UTG raises by 200
    assert h.options().min_to == 500
    with pytest.raises(BettingError):
        h.apply(bet(450))
    h.apply(bet(1000))  # raise by 700
    assert h.options().min_to == 1700


def test_short_all_in_does_not_reopen_for_who_acted():
    # tda-de 48: A bets 1,000 on the flop, B all-in 1,300 (short), C calls; A may only call.
    h = ring(20_000, 1400, 20_000, button=3)  # seats: 1 SB, 2 BB, 3 button
    h.apply(CALL)  # 3
    h.apply(CALL)  # 1
    h.apply(CHECK)  # 2
    assert h.street == Street.FLOP
    h.apply(bet(1000))  # seat 1
    h.apply(Action(Kind.ALL_IN))  # seat 2: 1,300 in all
    o = h.options()
    assert o.seat == 3 and o.can_raise and o.min_to == 2300  # C has not acted: may raise
    h.apply(CALL)
    o = h.options()
    assert o.seat == 1 and o.call == 300 and not o.can_raise and not o.reopened
    with pytest.raises(BettingError):
        h.apply(bet(3000))


def test_several_short_all_ins_that_make_a_full_raise_reopen():
    # A bets 1,000; B all-in 1,500 (short); C all-in 2,000: A faces 1,000 more = a full raise.
    h = ring(50_000, 1600, 2100, 50_000, button=4)
    for _ in range(3):
        h.apply(CALL)  # 3, 4, 1
    h.apply(CHECK)  # 2
    h.apply(bet(1000))  # 1 on the flop
    h.apply(Action(Kind.ALL_IN))  # 2: 1,500
    h.apply(Action(Kind.ALL_IN))  # 3: 2,000
    h.apply(CALL)  # 4
    o = h.options()
    assert o.seat == 1 and o.reopened and o.can_raise


def test_short_big_blind_is_still_called_in_full():
    h = ring(10_000, 60, 10_000)  # the big blind has only 60
    assert h.options().call == 100


def test_big_blind_ante_is_dead_money_posted_after_the_blind():
    h = ring(10_000, 150, 10_000, big_blind_ante=100)
    assert h.contributions()[2] == 150  # 100 blind first, 50 of the ante
    o = h.options()
    assert o.seat == 3 and o.call == 100


def test_everyone_folds_to_the_big_blind():
    h = ring(10_000, 10_000, 10_000)
    h.apply(FOLD)
    h.apply(FOLD)
    assert h.over
    r = pots_from(h.contributions(), h.folded())
    assert r.returned == (2, 50) and r.pots[0].amount == 100


def test_no_action_after_the_hand_is_over():
    h = ring(10_000, 10_000)
    h.apply(FOLD)
    with pytest.raises(BettingError):
        h.options()


def test_bad_set_up():
    with pytest.raises(BettingError):
        Hand.start([(1, 100)], button=1, small_blind=1, big_blind=2)
    with pytest.raises(BettingError):
        Hand.start([(1, 100), (1, 50)], button=1, small_blind=1, big_blind=2)
    with pytest.raises(BettingError):
        Hand.start([(1, 100), (2, -5)], button=1, small_blind=1, big_blind=2)


@st.composite
def played_hands(draw):
    n = draw(st.integers(2, 9))
    stacks = draw(st.lists(st.integers(1, 5000), min_size=n, max_size=n))
    h = ring(*stacks, big_blind_ante=draw(st.sampled_from([0, 100])))
    while not h.over and h.to_act is not None:
        o = h.options()
        choices = [CALL if o.call else CHECK]
        if o.call:
            choices.append(FOLD)
        if o.can_raise:
            choices.append(bet(draw(st.integers(o.min_to, o.max_to))))
            choices.append(Action(Kind.ALL_IN))
        h.apply(draw(st.sampled_from(choices)))
    return h, sum(stacks)


@settings(max_examples=300)
@given(played_hands())
def test_chips_are_conserved_and_pots_sum_to_what_was_bet(played):
    h, chips = played
    assert all(p.stack >= 0 for p in h.players)
    assert sum(p.stack for p in h.players) + sum(h.contributions().values()) == chips
    r = pots_from(h.contributions(), h.folded())
    assert r.total == sum(h.contributions().values())
