"""Differential test: random No-Limit hands through Floor's betting state and through pokerkit
(an independent research engine, test requirements only). Whose turn, the call amount, whether
a raise is allowed, the minimum and maximum raise, and every stack must agree at every step.

Documented differences (the test allows exactly these):

1. Reopening after short all-ins. pokerkit adds up every all-in raise since the last raise that
   was not all-in, including all-ins the player has already answered, and lets the player
   re-raise when that sum is a full raise; it also reopens the betting for players who only
   called the big blind when someone then goes all-in for less than a full raise. `tda-de` 48 /
   `bdpv` No-Limit 3 count only what the player faces since their own last action: less than a
   full raise means call or fold. Floor follows the rule.
2. No decision left. When a player has nothing to call and nobody left could answer a raise,
   pokerkit still asks them to check; Floor skips them (there is nothing to decide).

Heads-up is left out because pokerkit seats the blinds differently heads-up; `test_betting.py`
covers it against `tda-de` 34.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pokerkit import Automation, NoLimitTexasHoldem

from rules_engine.domain.betting import Action, Hand, Kind
from tests.examples import examples

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@settings(
    # Each example is a random hand played to its end through both engines: 1,000 hands a run
    # (3,000 made it one of the suite's longest tests), 3,000 in the deep run (tests/examples.py).
    max_examples=examples(1000, deep=3000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.integers(3, 9).flatmap(lambda n: st.lists(st.integers(100, 6000), min_size=n, max_size=n)),
    st.data(),
)
def test_floor_and_pokerkit_agree(stacks, data):
    n = len(stacks)
    ours = Hand.start(
        [(i + 1, s) for i, s in enumerate(stacks)], button=n, small_blind=50, big_blind=100
    )
    theirs = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, False, 0, (50, 100), 100, tuple(stacks), n
    )
    steps = 0
    while theirs.actor_index is not None:
        steps += 1
        if ours.over or ours.to_act is None or ours.options().seat != theirs.actor_index + 1:
            # Difference 2: pokerkit asks for a check nobody needs to make.
            assert theirs.checking_or_calling_amount == 0
            assert not theirs.can_complete_bet_or_raise_to()
            theirs.check_or_call()
            continue
        o = ours.options()
        assert o.call == theirs.checking_or_calling_amount
        assert [p.stack for p in ours.players] == list(theirs.stacks)
        can_raise = theirs.can_complete_bet_or_raise_to()
        if o.can_raise != can_raise:
            # Difference 1: the player faces less than a full raise since they last acted.
            me = ours.players[ours.to_act]
            assert can_raise and not o.reopened
            assert me.acted and ours.current_bet - me.faced < me.raise_when_acted
            can_raise = False
        if can_raise:
            assert o.min_to == theirs.min_completion_betting_or_raising_to_amount
            assert o.max_to == theirs.max_completion_betting_or_raising_to_amount
        choices = ["call"]
        if o.call:
            choices.append("fold")
        if can_raise:
            choices += ["raise", "min", "all_in"]
        pick = data.draw(st.sampled_from(choices))
        if pick == "fold":
            ours.apply(Action(Kind.FOLD))
            theirs.fold()
        elif pick == "call":
            ours.apply(Action(Kind.CALL if o.call else Kind.CHECK))
            theirs.check_or_call()
        else:
            to = {"min": o.min_to, "all_in": o.max_to}.get(pick) or data.draw(
                st.integers(o.min_to, o.max_to)
            )
            ours.apply(Action(Kind.BET, to))
            theirs.complete_bet_or_raise_to(to)
    assert ours.over or ours.to_act is None
