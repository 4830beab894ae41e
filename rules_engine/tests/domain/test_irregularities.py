import pytest

from rules_engine.domain.irregularities import (
    IrregularityError,
    OotAction,
    Street,
    four_card_flop,
    out_of_turn,
    premature_card,
)
from rules_engine.domain.rulesets import RULES


def test_four_card_flop_one_random_card_becomes_the_burn():
    p = four_card_flop()
    assert p.rules == ("tda-de 39",)
    text = " ".join(s.text("en") for s in p.steps)
    assert "face down" in text and "burn card" in text and "three are the flop" in text
    assert all(s.text("de") != s.text("en") for s in p.steps)


def test_premature_flop_and_turn():
    flop = premature_card(Street.FLOP)
    assert "without a burn card" in flop.steps[-1].en
    turn = premature_card(Street.TURN)
    assert "new turn" in turn.outcome.en
    with pytest.raises(IrregularityError):
        premature_card("river")  # type: ignore[arg-type]


def test_out_of_turn():
    assert "binding when" in out_of_turn(OotAction.BET, action_changed=False).outcome.en
    assert "not binding" in out_of_turn(OotAction.BET, action_changed=True).outcome.en
    # A fold out of turn always stands.
    assert "stands" in out_of_turn(OotAction.FOLD, action_changed=True).outcome.en


def test_cited_rules_are_summarised():
    for p in (four_card_flop(), premature_card(Street.FLOP), out_of_turn(OotAction.CALL, True)):
        for r in p.rules:
            assert r in RULES
