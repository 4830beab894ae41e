"""Undercalls before the chip rules (tda-de 42 before 49/50), chips for change (tda-de 60), a
single chip (bdpv 5.10), string bets (bdpv 2.4.12) and the missed raise (bdpv 2.4.10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules_engine.domain.interpret import (
    Declared,
    Outcome,
    Situation,
    Verbal,
    interpret,
)
from rules_engine.domain.rulesets import RULES

CHIPS = [25, 100, 500, 1000, 5000]


def facing(bet, last_raise=None, in_front=0, stack=100_000, bb=200, **kw):
    return Situation(bet, in_front, last_raise or bet, stack, bb, **kw)


# --- tda-de 42 before 49 and 50 ---------------------------------------------------------------


def test_42_several_chips_short_of_the_call_are_an_undercall_not_a_call():
    # A opens 400, B raises to 1,100 (the rule 50 example): C silently puts in two 500s.
    # Every chip is needed, but together they do not reach the call: 42, not 50.
    r = interpret(facing(1100, last_raise=700), Declared(chips=[500, 500]))
    assert (r.outcome, r.to, r.rules) == (Outcome.COMPLETE_OR_FOLD, 0, ("tda-de 42",))
    r = interpret(facing(1000), Declared(chips=[500, 100, 100, 25]))
    assert r.outcome == Outcome.COMPLETE_OR_FOLD and "tda-de 50" not in r.rules


def test_50_examples_still_call_once_the_chips_reach_the_call():
    # Rule 50: 1,000 + 500 against 1,100 is a call.
    r = interpret(facing(1100, last_raise=700), Declared(chips=[1000, 500]))
    assert (r.outcome, r.to, r.rules) == (Outcome.CALL, 1100, ("tda-de 50",))
    # Rule 50: blinds 25/50, A bets 1,050 after the flop, B puts in his last two 1,000s: a call.
    r = interpret(Situation(1050, 0, 1050, 2000, 50), Declared(chips=[1000, 1000]))
    assert (r.outcome, r.to) == (Outcome.CALL, 1050)


def test_42_a_short_stack_pushing_everything_is_all_in_not_an_undercall():
    r = interpret(facing(1000, stack=600), Declared(chips=[500, 100]))
    assert (r.outcome, r.to) == (Outcome.CALL, 600)


def test_45_several_short_chips_against_an_all_in_are_a_call():
    r = interpret(facing(1000, facing_all_in=True), Declared(chips=[500, 100]))
    assert (r.outcome, r.to, r.rules) == (Outcome.CALL, 1000, ("tda-de 45",))


@given(
    st.integers(1, 20_000),
    st.integers(0, 5_000),
    st.integers(1, 50_000),
    st.lists(st.sampled_from(CHIPS), min_size=1, max_size=8),
)
def test_property_short_of_the_call_is_always_an_undercall(bet, front, stack, chips):
    """tda-de 42 comes first: chips that do not reach the call (and are not all the player
    has) are an undercall, whatever their number or size; 49 and 50 are never cited."""
    in_front = min(front, bet - 1)
    s = Situation(bet, in_front, bet, stack, 100)
    r = interpret(s, Declared(chips=chips))
    if sum(chips) < min(bet - in_front, stack):
        assert r.outcome == Outcome.COMPLETE_OR_FOLD and r.to == in_front
        assert r.rules == ("tda-de 42",)
    else:
        assert r.outcome != Outcome.COMPLETE_OR_FOLD


# --- tda-de 60 --------------------------------------------------------------------------------


def test_60_chips_for_change_count_and_the_rule_is_cited():
    # Opening bet 325; A silently puts in a 500 and a 25 hoping for 200 back: a raise to 650.
    r = interpret(
        Situation(325, 0, 325, 100_000, 100), Declared(chips=[500, 25], expects_change=True)
    )
    assert (r.outcome, r.to) == (Outcome.BET, 650)
    assert r.rules[-1] == "tda-de 60" and "tda-de 50" in r.rules


def test_60_does_not_apply_to_a_declaration_or_one_oversized_chip():
    s = Situation(325, 0, 325, 100_000, 100)
    # "call" said first: the words decide, the dealer gives change.
    said = interpret(s, Declared(Verbal.CALL, chips=[500, 25], expects_change=True))
    assert (said.outcome, said.to) == (Outcome.CALL, 325) and "tda-de 60" not in said.rules
    # One 1,000 chip against 325: a call (49) with change.
    one = interpret(s, Declared(chips=[1000], expects_change=True))
    assert (one.outcome, one.to, one.rules) == (Outcome.CALL, 325, ("tda-de 49",))


# --- bdpv 5.10 --------------------------------------------------------------------------------


def test_bdpv_5_10_one_chip_against_the_big_blind_is_a_call():
    # Blinds 100/200, no raise: one 1,000 chip without a word calls the big blind.
    r = interpret(Situation(200, 0, 200, 10_000, 200), Declared(chips=[1000]), "bdpv")
    assert (r.outcome, r.to) == (Outcome.CALL, 200)
    assert r.rules == ("bdpv 2.4.11", "bdpv 5.10")
    # "raise" said clearly first: the chip raises.
    raised = interpret(
        Situation(200, 0, 200, 10_000, 200), Declared(Verbal.RAISE, chips=[1000]), "bdpv"
    )
    assert (raised.outcome, raised.to) == (Outcome.BET, 1000)


def test_bdpv_5_10_one_chip_with_no_bet_to_face_is_a_bet_the_dealer_asks_about():
    r = interpret(Situation(0, 0, 200, 10_000, 200), Declared(chips=[1000]), "bdpv")
    assert (r.outcome, r.to, r.rules) == (Outcome.BET, 1000, ("bdpv 5.10",))
    assert "dealer asks" in r.note


# --- bdpv 2.4.12: the first motion decides ---------------------------------------------------


def test_bdpv_2_4_12_a_second_motion_adds_no_raise():
    # Facing 1,000: a 1,000 chip, then another 1,000 in a second motion: a call.
    r = interpret(facing(1000), Declared(chips=[1000, 1000], first_motion=[1000]), "bdpv")
    assert (r.outcome, r.to) == (Outcome.CALL, 1000) and r.rules[0] == "bdpv 2.4.12"
    assert "first motion" in r.note
    # The same chips in one motion reach the call plus half: a raise (2.4.12).
    one_motion = interpret(facing(1000), Declared(chips=[1000, 1000]), "bdpv")
    assert (one_motion.outcome, one_motion.to) == (Outcome.BET, 2000)


def test_bdpv_2_4_12_the_call_plus_half_in_the_first_motion_is_a_raise():
    r = interpret(facing(1000), Declared(chips=[1000, 500, 500], first_motion=[1000, 500]), "bdpv")
    assert (r.outcome, r.to) == (Outcome.BET, 2000)
    assert r.rules[:2] == ("bdpv 2.4.12", "bdpv 2.4.6")


def test_bdpv_2_4_12_a_short_first_motion_completed_later_is_a_call():
    r = interpret(facing(1000), Declared(chips=[500, 500, 1000], first_motion=[500]), "bdpv")
    assert (r.outcome, r.to, r.rules) == (Outcome.CALL, 1000, ("bdpv 2.4.12",))
    assert all(x.startswith("bdpv") for x in r.rules)


@given(
    st.integers(100, 10_000),
    st.lists(st.sampled_from(CHIPS), min_size=2, max_size=8),
    st.integers(1, 7),
    st.sampled_from(["tda-de", "bdpv"]),
)
def test_property_a_later_motion_never_makes_a_raise(bet, chips, cut, ruleset):
    """String bets (tda-de 46/55, bdpv 2.4.12): when the first motion alone is no raise, the
    chips of the later motions cannot turn it into one."""
    first = chips[: min(cut, len(chips) - 1)]
    s = facing(bet)
    alone = interpret(s, Declared(chips=first), ruleset)
    whole = interpret(s, Declared(chips=chips, first_motion=first), ruleset)
    if alone.outcome != Outcome.BET:
        assert whole.outcome != Outcome.BET
    assert s.in_front <= whole.to <= s.in_front + s.stack
    assert all(rule in RULES for rule in whole.rules)


# --- bdpv 2.4.10: the missed raise -----------------------------------------------------------


def test_bdpv_2_4_10_less_than_half_with_nobody_acting_since_comes_back():
    # A 100 chip against a raise to 400 the player did not notice: 25 % of the call.
    s = Situation(400, 0, 300, 5000, 100, missed_raise=True)
    r = interpret(s, Declared(chips=[100]), "bdpv")
    assert (r.outcome, r.to, r.rules) == (Outcome.TAKE_BACK, 0, ("bdpv 2.4.10",))


def test_bdpv_2_4_10_no_take_back_once_someone_acted_or_half_went_in():
    acted = Situation(400, 0, 300, 5000, 100, missed_raise=True, acted_since=True)
    r = interpret(acted, Declared(chips=[100]), "bdpv")
    assert (r.outcome, r.to) == (Outcome.CALL, 400) and r.rules[0] == "bdpv 2.4.10"
    half = Situation(400, 0, 300, 5000, 100, missed_raise=True)
    r = interpret(half, Declared(chips=[100, 100]), "bdpv")
    assert (r.outcome, r.to) == (Outcome.CALL, 400) and "bdpv 2.4.10" in r.rules
    eighty = interpret(half, Declared(chips=[100, 100, 100, 25, 25, 25]), "bdpv")
    assert eighty.outcome == Outcome.CALL and "bdpv 5.9" in eighty.rules


def test_bdpv_2_4_10_counts_what_is_added_to_chips_already_in_front():
    # 200 in front, raised to 1,000: 800 to call; 300 more is less than half of it.
    s = Situation(1000, 200, 800, 5000, 100, missed_raise=True)
    r = interpret(s, Declared(chips=[100, 100, 100]), "bdpv")
    assert (r.outcome, r.to) == (Outcome.TAKE_BACK, 200)


def test_tda_de_has_no_take_back_42_decides():
    s = Situation(400, 0, 300, 5000, 100, missed_raise=True)
    r = interpret(s, Declared(chips=[100]))
    assert (r.outcome, r.rules) == (Outcome.COMPLETE_OR_FOLD, ("tda-de 42",))


@given(
    st.integers(1, 20_000),
    st.integers(0, 5_000),
    st.integers(1, 50_000),
    st.lists(st.sampled_from(CHIPS), min_size=1, max_size=6),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["tda-de", "bdpv"]),
)
def test_property_chips_come_back_only_under_2_4_10(
    bet, front, stack, chips, missed, acted, ruleset
):
    in_front = min(front, bet - 1)
    s = Situation(bet, in_front, bet, stack, 100, missed_raise=missed, acted_since=acted)
    r = interpret(s, Declared(chips=chips), ruleset)
    call = min(bet - in_front, stack)
    if r.outcome == Outcome.TAKE_BACK:
        assert ruleset == "bdpv" and missed and not acted
        assert 2 * sum(chips) < call and r.to == in_front
        assert r.rules == ("bdpv 2.4.10",)
    elif ruleset == "bdpv" and missed and not acted:
        assert 2 * sum(chips) >= call
    assert in_front <= r.to <= in_front + stack


def test_bdpv_a_declared_call_after_a_missed_raise_is_judged_by_5_8():
    # "call" said with a 100 chip against a raise to 400 the player did not notice.
    s = Situation(400, 0, 300, 5000, 100, missed_raise=True)
    r = interpret(s, Declared(Verbal.CALL, chips=[100]), "bdpv")
    assert r.outcome == Outcome.CALL and "bdpv 5.8" in r.rules and "bdpv 2.4.10" not in r.rules
