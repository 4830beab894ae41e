"""Ruleset versions: a tournament keeps the version it plays under when a newer one is added."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_engine.domain import rulesets
from rules_engine.domain.interpret import Declared, Outcome, Situation, interpret
from rules_engine.domain.rulesets import (
    RULESETS,
    Registry,
    UnknownRuleset,
    citation,
    ruleset,
    version_in_force,
    versions,
)
from rules_engine.domain.show_order import show_order


def test_each_ruleset_carries_the_version_of_its_book():
    # "Poker Turnierregeln v1.0"; "Die offiziellen Poker-Regeln des BDPV V1.1".
    assert ruleset("tda-de").version == "1.0" and versions("tda-de") == ("1.0",)
    assert ruleset("bdpv").version == "1.1" and versions("bdpv") == ("1.1",)
    assert ruleset("tda-de", "1.0") is ruleset("tda-de") is ruleset("tda-de", "")
    assert RULESETS["bdpv"] is ruleset("bdpv") and sorted(RULESETS) == ["bdpv", "tda-de"]


def test_an_unknown_version_or_ruleset_is_a_clear_error():
    with pytest.raises(UnknownRuleset, match=r"'tda-de' has no version '0\.9' \(it has 1\.0\)"):
        ruleset("tda-de", "0.9")
    with pytest.raises(KeyError, match="unknown ruleset 'wsop'"):
        ruleset("wsop", "1.0")
    with pytest.raises(KeyError):
        version_in_force("tda-de", "0.9")


def test_a_version_is_never_replaced_and_is_a_number():
    registry = Registry(rulesets.REGISTRY.all())
    with pytest.raises(ValueError, match="registered already"):
        registry.register(ruleset("tda-de"))
    with pytest.raises(ValueError, match="not a number"):
        registry.register(replace(ruleset("tda-de"), version="v1.3"))


def test_citations_name_the_version():
    assert citation("tda-de 47", "1.0") == "tda-de 1.0 · 47"
    assert citation("bdpv 2.4.6", "1.1") == "bdpv 1.1 · 2.4.6"
    assert citation("tda-de 47", "") == "tda-de 47"


@pytest.fixture
def tda_1_2(monkeypatch):
    """A later tda-de edition (for this test only): a shorter time call, and chips put in after
    a missed raise may come back."""
    registry = Registry(rulesets.REGISTRY.all())
    registry.register(
        replace(ruleset("tda-de"), version="1.2", time_call=(30, 5), missed_raise_take_back=50)
    )
    monkeypatch.setattr(rulesets, "REGISTRY", registry)


def test_a_newer_version_leaves_a_tournament_on_the_older_one(tda_1_2):
    assert versions("tda-de") == ("1.0", "1.2") and versions("bdpv") == ("1.1",)
    # Without a version: the newest, for new tournaments and callers with no tournament.
    assert ruleset("tda-de").version == "1.2" and ruleset("tda-de").time_call == (30, 5)
    assert RULESETS["tda-de"].time_call == (30, 5)
    # A tournament that recorded 1.0 is ruled by 1.0.
    kept = ruleset("tda-de", version_in_force("tda-de", "1.0"))
    assert (kept.version, kept.time_call) == ("1.0", (60, 10))
    # A tournament made before versions were kept plays under the newest.
    assert version_in_force("tda-de", "") == "1.2"


def test_rulings_follow_the_version_in_force(tda_1_2):
    # A 100 chip against a raise to 400 the player did not notice.
    s = Situation(400, 0, 300, 5000, 100, missed_raise=True)
    older = interpret(s, Declared(chips=[100]), "tda-de", version="1.0")
    newer = interpret(s, Declared(chips=[100]), "tda-de")
    assert (older.outcome, older.rules) == (Outcome.COMPLETE_OR_FOLD, ("tda-de 42",))
    assert (newer.outcome, newer.to) == (Outcome.TAKE_BACK, 0)
    order = show_order([2, 6], button=1, table_seats=9, ruleset_id="tda-de", version="1.0")
    assert order.order == (2, 6)
    with pytest.raises(ValueError, match=r"no version '1\.1'"):
        interpret(s, Declared(chips=[100]), "tda-de", version="1.1")
