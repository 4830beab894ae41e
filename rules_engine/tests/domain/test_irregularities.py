import pytest

from rules_engine.domain.irregularities import (
    Act,
    IrregularityError,
    MisdealCause,
    OotAction,
    Street,
    burn_error,
    four_card_flop,
    misdeal,
    out_of_turn,
    premature_card,
    substantial_action,
    wrong_card_count,
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
    river = premature_card(Street.RIVER)
    assert "new river" in river.outcome.en and river.rules == ("tda-de 39",)
    with pytest.raises(IrregularityError):
        premature_card("fifth")  # type: ignore[arg-type]
    with pytest.raises(IrregularityError):
        premature_card(Street.FLOP, ruleset="wsop")


def test_out_of_turn():
    assert "binding when" in out_of_turn(OotAction.BET, action_changed=False).outcome.en
    assert "not binding" in out_of_turn(OotAction.BET, action_changed=True).outcome.en
    # A fold out of turn always stands.
    assert "stands" in out_of_turn(OotAction.FOLD, action_changed=True).outcome.en


def test_cited_rules_are_summarised():
    for p in (four_card_flop(), premature_card(Street.FLOP), out_of_turn(OotAction.CALL, True)):
        for r in p.rules:
            assert r in RULES


def test_bdpv_premature_cards():
    assert premature_card(Street.FLOP, "bdpv").rules == ("bdpv 4.7", "bdpv 4.8")
    turn = premature_card(Street.TURN, "bdpv")
    assert "would have been the river" in turn.outcome.en
    assert premature_card(Street.RIVER, "bdpv").rules == ("bdpv 4.7", "bdpv 4.10")


def test_bdpv_four_card_flop():
    assert "fourth card is an exposed burn" in four_card_flop("bdpv").outcome.en
    unknown = four_card_flop("bdpv", fourth_known=False)
    assert unknown.outcome.en.startswith("Misdeal") and "bdpv 4.4" in unknown.rules


def test_bdpv_out_of_turn():
    check = out_of_turn(OotAction.CHECK, False, "bdpv")
    assert "no bet or raise" in check.outcome.en and check.rules == ("bdpv 2.4.8",)
    assert "never become a raise" in out_of_turn(OotAction.CALL, False, "bdpv").outcome.en
    assert "does not bind" in out_of_turn(OotAction.BET, True, "bdpv").outcome.en


def test_substantial_action_tda_de_36():
    assert not substantial_action([])
    assert not substantial_action([Act.FOLD, Act.FOLD])
    assert not substantial_action([Act.CHECK, Act.FOLD])
    assert substantial_action([Act.FOLD, Act.CALL])
    assert substantial_action([Act.BET, Act.FOLD])
    assert substantial_action([Act.FOLD, Act.FOLD, Act.FOLD])


def test_misdeal_cut_off_differs_by_ruleset():
    # Two folds: no substantial action under tda-de 36, but two players acted (bdpv 2.1).
    folds = [Act.FOLD, Act.FOLD]
    tda = misdeal(MisdealCause.FIRST_CARD_WRONG_SEAT, folds)
    assert tda.outcome.en.startswith("Misdeal") and tda.rules == ("tda-de 35", "tda-de 36")
    assert "button does not move" in " ".join(s.en for s in tda.steps)
    bdpv = misdeal(MisdealCause.FIRST_CARD_WRONG_SEAT, folds, "bdpv")
    assert bdpv.outcome.en.startswith("Too late") and "bdpv 2.2" in bdpv.rules
    late = misdeal(MisdealCause.SEAT_MISSED, [Act.FOLD, Act.CALL])
    assert late.outcome.en.startswith("Too late") and "tda-de 38" in late.rules
    one = misdeal(MisdealCause.SEAT_MISSED, [Act.CALL], "bdpv")
    assert one.outcome.en.startswith("Misdeal")


def test_what_each_book_calls_a_misdeal():
    assert misdeal(MisdealCause.LATER_CARD_EXPOSED, []).outcome.en.startswith("Misdeal")
    later = misdeal(MisdealCause.LATER_CARD_EXPOSED, [], "bdpv")
    assert later.outcome.en.startswith("Not a misdeal") and later.rules == ("bdpv 4.1",)
    assert misdeal(MisdealCause.CARD_UP_IN_DECK, [], "bdpv").rules == ("bdpv 2.3.6",)
    assert misdeal(MisdealCause.BUTTON_TWO_IN_A_ROW, []).outcome.en.startswith("Not a")
    assert misdeal(MisdealCause.BUTTON_TWO_IN_A_ROW, [], "bdpv").outcome.en.startswith("Mis")
    assert misdeal(MisdealCause.FIRST_CARDS_EXPOSED, [], "bdpv").rules[0] == "bdpv 4.1"
    with pytest.raises(ValueError):
        misdeal("dropped deck", [])  # type: ignore[arg-type]


def test_wrong_number_of_cards():
    assert "missing card" in wrong_card_count(acted=False, button_short=True).outcome.en
    dead = wrong_card_count(acted=True, button_short=True)
    assert dead.outcome.en.startswith("The hand is dead") and dead.rules == (
        "tda-de 35",
        "tda-de 38",
    )
    assert wrong_card_count(acted=True, button_short=False, ruleset="bdpv").rules == ("bdpv 2.2",)


def test_burn_errors():
    assert "Put it right" in burn_error(betting_started=False).outcome.en
    assert burn_error(betting_started=True, ruleset="bdpv").rules == ("bdpv 2.3.13",)


def test_every_rule_cited_by_any_procedure_is_summarised():
    procedures = [
        four_card_flop("bdpv", fourth_known=False),
        four_card_flop("bdpv"),
        *(premature_card(st, rs) for st in Street for rs in ("tda-de", "bdpv")),
        *(
            out_of_turn(a, c, rs)
            for a in OotAction
            for c in (True, False)
            for rs in ("tda-de", "bdpv")
        ),
        *(
            misdeal(m, acts, rs)
            for m in MisdealCause
            for rs in ("tda-de", "bdpv")
            for acts in ([], [Act.CALL, Act.CALL])
        ),
        *(
            wrong_card_count(acted=a, button_short=b, ruleset=rs)
            for a in (True, False)
            for b in (True, False)
            for rs in ("tda-de", "bdpv")
        ),
        burn_error(betting_started=True),
        burn_error(betting_started=False, ruleset="bdpv"),
    ]
    for p in procedures:
        for r in p.rules:
            assert r in RULES, r
        for step in (p.outcome, *p.steps):
            assert step.en and step.de and step.en != step.de


def test_skipped_player():
    from rules_engine.domain.irregularities import skipped_player

    assert "acts now" in skipped_player([Act.CHECK, Act.CHECK]).outcome.en
    late = skipped_player([Act.BET, Act.CALL])
    assert late.outcome.en.startswith("Too late") and "dead" in late.steps[1].en
    assert skipped_player([Act.CHECK, Act.CHECK], "bdpv").outcome.en.startswith("Too late")
    assert "acts now" in skipped_player([Act.BET], "bdpv").outcome.en
    for p in (late, skipped_player([], "bdpv")):
        assert all(r in RULES for r in p.rules)
