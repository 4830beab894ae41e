"""Action interpretation against the rulebook's own examples (tda-de 40-54)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.domain.interpret import (
    Declared,
    InterpretError,
    Outcome,
    Situation,
    Verbal,
    interpret,
)


def facing(bet, last_raise=None, in_front=0, stack=100_000, bb=200):
    return Situation(bet, in_front, last_raise or bet, stack, bb)


def test_47_naming_1400_against_a_1000_bet_is_a_call():
    r = interpret(facing(1000), Declared(Verbal.AMOUNT, amount=1400))
    assert (r.outcome, r.to) == (Outcome.CALL, 1000) and "tda-de 47" in r.rules
    # The same 1,400 pushed silently in chips.
    r = interpret(facing(1000), Declared(chips=[1000, 100, 100, 100, 100]))
    assert (r.outcome, r.to) == (Outcome.CALL, 1000)


def test_47_raise_8000_is_the_total():
    r = interpret(facing(2000), Declared(Verbal.RAISE, amount=8000))
    assert (r.outcome, r.to) == (Outcome.BET, 8000)


def test_47_half_a_raise_or_more_is_completed():
    r = interpret(facing(1000), Declared(Verbal.AMOUNT, amount=1500))
    assert (r.outcome, r.to) == (Outcome.BET, 2000)
    assert "completed" in r.note


def test_50_every_chip_needed_is_a_call():
    # A opens 400, B raises to 1,100; C pushes a 1,000 and a 500 without a word: a call.
    r = interpret(facing(1100, last_raise=700), Declared(chips=[1000, 500]))
    assert (r.outcome, r.to) == (Outcome.CALL, 1100) and "tda-de 50" in r.rules


def test_49_oversized_chip():
    r = interpret(facing(400), Declared(chips=[5000]))
    assert (r.outcome, r.to) == (Outcome.CALL, 400) and "tda-de 49" in r.rules
    r = interpret(facing(400), Declared(Verbal.RAISE, chips=[5000]))
    assert (r.outcome, r.to) == (Outcome.BET, 5000)
    r = interpret(Situation(0, 0, 200, 50_000, 200), Declared(chips=[1000]))
    assert (r.outcome, r.to) == (Outcome.BET, 1000)


def test_40_whichever_comes_first():
    # Chips first, "raise" afterwards: the chips decide (one oversized chip: a call).
    r = interpret(facing(400), Declared(Verbal.RAISE, chips=[5000], verbal_first=False))
    assert (r.outcome, r.to) == (Outcome.CALL, 400) and "tda-de 40" in r.rules


def test_53_pot_in_no_limit_is_a_minimum_bet_or_raise():
    assert interpret(facing(600), Declared(Verbal.POT)).to == 1200
    r = interpret(Situation(0, 0, 200, 50_000, 200), Declared(Verbal.POT))
    assert (r.outcome, r.to) == (Outcome.BET, 200)


def test_54_invalid_expressions():
    no_bet = Situation(0, 0, 200, 50_000, 200)
    assert interpret(no_bet, Declared(Verbal.CALL)).outcome == Outcome.CHECK
    assert interpret(no_bet, Declared(Verbal.RAISE)).to == 200
    assert interpret(facing(600), Declared(Verbal.CHECK)).outcome == Outcome.CALL_OR_FOLD


def test_42_call_binds_the_full_call_and_short_stacks_go_all_in():
    r = interpret(facing(5000, stack=3000), Declared(Verbal.CALL))
    assert (r.outcome, r.to) == (Outcome.CALL, 3000)
    r = interpret(facing(1000, stack=1300), Declared(Verbal.AMOUNT, amount=1300))
    assert (r.outcome, r.to) == (Outcome.BET, 1300) and r.note == "all-in"


def test_bad_input():
    with pytest.raises(InterpretError):
        Situation(-1, 0, 200, 100, 200)
    with pytest.raises(InterpretError):
        interpret(facing(100), Declared())
    with pytest.raises(InterpretError):
        interpret(facing(100), Declared(chips=[0]))


@given(
    st.integers(0, 20_000),
    st.integers(0, 20_000),
    st.integers(1, 5000),
    st.lists(st.sampled_from([25, 100, 500, 1000, 5000]), min_size=1, max_size=8),
    st.sampled_from(list(Verbal)),
    st.booleans(),
)
def test_never_more_than_the_stack_never_less_than_in_front(
    bet, stack, raise_, chips, verbal, first
):
    s = Situation(bet, 0, max(raise_, 200), stack, 200)
    amount = sum(chips) if verbal in (Verbal.AMOUNT,) else None
    try:
        r = interpret(s, Declared(verbal, amount=amount, chips=chips, verbal_first=first))
    except InterpretError:
        return
    assert s.in_front <= r.to <= s.in_front + s.stack
    if r.outcome == Outcome.BET:
        assert r.to > s.current_bet
    assert r.rules


# --- bdpv ---------------------------------------------------------------------------------


def test_bdpv_2_4_4_minimum_raise_example():
    # BB 100; a bet of 100 raised to 200 (a raise of 100): the next raise is to at least 300.
    r = interpret(Situation(200, 0, 100, 10_000, 100), Declared(Verbal.RAISE), "bdpv")
    assert (r.outcome, r.to) == (Outcome.BET, 300)
    assert all(x.startswith("bdpv") for x in r.rules)


def test_bdpv_5_2_raise_over_a_short_all_in_example():
    # BB 100, a player all-in for 20: a raise must be to at least 120.
    r = interpret(Situation(20, 0, 100, 10_000, 100), Declared(Verbal.RAISE), "bdpv")
    assert r.to == 120


def test_bdpv_5_8_misunderstood_call_example():
    # A 500 chip with "400" said quietly; the opponent puts in 100 and says "call".
    r = interpret(Situation(400, 0, 400, 5000, 100), Declared(Verbal.CALL, chips=[100]), "bdpv")
    assert r.outcome == Outcome.CALL and "taken back" in r.note
    assert "bdpv 5.8" in r.rules


def test_bdpv_5_9_eighty_percent_is_made_up():
    r = interpret(Situation(500, 0, 500, 5000, 100), Declared(chips=[100, 100, 100, 100]), "bdpv")
    assert (r.outcome, r.to, r.rules) == (Outcome.CALL, 500, ("bdpv 5.9",))
    under = interpret(Situation(500, 0, 500, 5000, 100), Declared(chips=[100, 100, 100]), "bdpv")
    assert "taken back" in under.note


def test_bdpv_5_6_words_beat_chips_whatever_came_first():
    d = Declared(Verbal.CALL, chips=[1000, 1000], verbal_first=False)
    tda = interpret(Situation(1000, 0, 1000, 10_000, 100), d)
    bdpv = interpret(Situation(1000, 0, 1000, 10_000, 100), d, "bdpv")
    assert tda.outcome == Outcome.BET  # tda-de 40: the chips came first
    assert (bdpv.outcome, bdpv.to) == (Outcome.CALL, 1000) and "bdpv 5.6" in bdpv.rules


def test_bdpv_2_4_12_call_plus_half_is_a_raise():
    s = Situation(1100, 0, 700, 20_000, 200)
    # 1,600 silently: tda-de 50/47 makes it a raise (500 added is at least half of 700) ...
    assert interpret(s, Declared(chips=[1000, 500, 100])).outcome == Outcome.BET
    # ... bdpv 2.4.12: below 1,100 + 550 it is a call.
    r = interpret(s, Declared(chips=[1000, 500, 100]), "bdpv")
    assert (r.outcome, r.to, r.rules) == (Outcome.CALL, 1100, ("bdpv 2.4.12",))
    raised = interpret(s, Declared(chips=[1000, 500, 100, 100]), "bdpv")
    assert (raised.outcome, raised.to) == (Outcome.BET, 1800)


def test_bdpv_oversized_chip_is_a_call():
    r = interpret(Situation(300, 0, 300, 10_000, 100), Declared(chips=[1000]), "bdpv")
    assert (r.outcome, r.to, r.rules) == (Outcome.CALL, 300, ("bdpv 2.4.11", "bdpv 5.10"))


def test_unknown_ruleset_is_refused():
    with pytest.raises(InterpretError, match="ruleset"):
        interpret(Situation(0, 0, 100, 1000, 100), Declared(Verbal.CHECK), "wsop")


# --- more tda-de examples and rules ---------------------------------------------------------


def test_42_an_undercall_is_complete_or_fold():
    r = interpret(facing(1000), Declared(chips=[500]))
    assert (r.outcome, r.to, r.rules) == (Outcome.COMPLETE_OR_FOLD, 0, ("tda-de 42",))
    said = interpret(facing(1000), Declared(Verbal.AMOUNT, amount=500))
    assert said.outcome == Outcome.COMPLETE_OR_FOLD
    # "call" said first binds the full call.
    assert interpret(facing(1000), Declared(Verbal.CALL, chips=[500])).to == 1000


def test_43_short_raise_is_corrected_to_the_minimum():
    # 100-200: A raises to 600 (a raise of 400), B says raise to 900: the minimum is 1,000.
    r = interpret(facing(600, last_raise=400), Declared(Verbal.RAISE, amount=900))
    assert (r.outcome, r.to) == (Outcome.BET, 1000)


def test_45_a_small_chip_against_a_big_bet_and_against_an_all_in():
    # Blinds 2k-4k, A bets 50k, B silently puts in one 1k chip: not a call by itself ...
    s = Situation(50_000, 0, 50_000, 200_000, 4000)
    assert interpret(s, Declared(chips=[1000])).outcome == Outcome.COMPLETE_OR_FOLD
    # ... but facing an all-in a silent chip is a full call.
    s = Situation(50_000, 0, 50_000, 200_000, 4000, facing_all_in=True)
    r = interpret(s, Declared(chips=[1000]))
    assert (r.outcome, r.to) == (Outcome.CALL, 50_000) and "tda-de 45" in r.rules


def test_46_55_string_bet_is_judged_by_the_first_motion():
    # Facing 1,000: a 1,000 chip, then another 1,000 in a second motion: a call, not a raise.
    r = interpret(facing(1000), Declared(chips=[1000, 1000], first_motion=[1000]))
    assert (r.outcome, r.to) == (Outcome.CALL, 1000) and "tda-de 55" in r.rules
    # Short first motion completed by the second: a call.
    r = interpret(facing(1000), Declared(chips=[500, 500, 1000], first_motion=[500]))
    assert (r.outcome, r.to) == (Outcome.CALL, 1000)
    with pytest.raises(InterpretError):
        interpret(facing(1000), Declared(chips=[500], first_motion=[1000]))


def test_56_unclear_amount_is_the_highest_sensible_reading_up_to_the_pot():
    # Blinds 200/400, pot under 5,000: "five" is 500; with 5,000 or more in the pot, 5,000.
    small = Situation(0, 0, 400, 100_000, 400, pot=4000)
    r = interpret(small, Declared(Verbal.AMOUNT, amount=5, unclear_amount=True))
    assert (r.outcome, r.to) == (Outcome.BET, 500) and r.rules[0] == "tda-de 56"
    big = Situation(0, 0, 400, 100_000, 400, pot=6000)
    assert interpret(big, Declared(Verbal.AMOUNT, amount=5, unclear_amount=True)).to == 5000


def test_58_conditional_statement_goes_to_the_floor():
    r = interpret(facing(1000), Declared(Verbal.CONDITIONAL))
    assert (r.outcome, r.rules) == (Outcome.FLOOR, ("tda-de 58",))


def test_60_chips_for_change_are_a_raise():
    # Opening bet 325; A silently puts in 525 (a 500 and a 25) hoping for change: a raise to 650.
    r = interpret(Situation(325, 0, 325, 100_000, 100), Declared(chips=[500, 25]))
    assert (r.outcome, r.to) == (Outcome.BET, 650)


@given(
    st.integers(0, 5000),
    st.integers(0, 5000),
    st.integers(1, 3000),
    st.integers(0, 20_000),
    st.sampled_from(list(Verbal)),
    st.lists(st.sampled_from([25, 100, 500, 1000, 5000]), max_size=5),
    st.booleans(),
    st.sampled_from(["tda-de", "bdpv"]),
)
def test_every_rule_cited_has_a_summary(bet, front, last, stack, verbal, chips, first, ruleset):
    from rules_engine.domain.rulesets import RULES

    in_front = min(front, bet)
    s = Situation(bet, in_front, last, stack, 100, pot=3000)
    amount = 1200 if verbal in (Verbal.AMOUNT, Verbal.RAISE) else None
    d = Declared(verbal, amount, chips, first)
    if (verbal == Verbal.NONE and not chips) or (verbal == Verbal.AMOUNT and amount is None):
        return
    r = interpret(s, d, ruleset)
    for rule_id in r.rules:
        assert rule_id in RULES, rule_id
