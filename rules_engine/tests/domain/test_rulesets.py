from rules_engine.domain.interpret import Declared, Situation, Verbal, interpret
from rules_engine.domain.rulesets import RULES, rule


def test_every_rule_has_both_languages():
    for r in RULES.values():
        assert r.title("en") and r.title("de") and r.summary("en") and r.summary("de")
        assert r.summary("en") != r.summary("de")


def test_every_rule_the_interpreter_cites_is_known():
    s = Situation(1000, 0, 1000, 50_000, 200)
    cases = [
        Declared(Verbal.AMOUNT, amount=1400),
        Declared(chips=[5000]),
        Declared(Verbal.RAISE, chips=[5000]),
        Declared(chips=[1000, 500]),
        Declared(Verbal.POT),
        Declared(Verbal.CHECK),
        Declared(Verbal.CALL),
        Declared(Verbal.RAISE),
        Declared(Verbal.RAISE, chips=[500], verbal_first=False),
    ]
    for d in cases:
        for rule_id in interpret(s, d).rules:
            assert rule(rule_id).id == rule_id


def test_every_rule_a_ruleset_cites_is_summarised():
    from rules_engine.domain.interpret import BDPV_EQUIVALENT
    from rules_engine.domain.rulesets import RULESETS, ruleset

    for rs in RULESETS.values():
        for topic, rule_id in rs.cite.items():
            assert rule_id in RULES, (rs.id, topic)
        assert rs.penalty_ladder[0].kind == "warning"
        assert rs.penalty_ladder[-1].kind == "disqualification"
    for rule_id in BDPV_EQUIVALENT.values():
        assert rule_id in RULES
    assert ruleset("bdpv").undercall_complete == 80
    import pytest

    with pytest.raises(KeyError):
        ruleset("wsop")
