"""The tournament's setting rules, on plain values (no database)."""

from __future__ import annotations

from tournament.domain.settings_rules import is_currency, settings_problems

GOOD = {
    "name": "Sunday",
    "currency": "EUR",
    "buy_in": 10000,
    "fee": 1000,
    "starting_stack": 20000,
    "payout_unit": 100,
    "bounty_kind": "progressive",
    "bounty": 5000,
    "places_paid": None,
}


def codes(values: dict) -> set[tuple[str, str]]:
    return {(p.field, p.code) for p in settings_problems(values)}


def test_good_values_break_no_rule() -> None:
    assert codes(GOOD) == set()


def test_bounty_above_the_buy_in_is_refused_across_fields() -> None:
    assert ("bounty", "bounty_above_buy_in") in codes({**GOOD, "bounty": 10001})
    assert ("bounty", "bounty_above_buy_in") in codes({**GOOD, "buy_in": 4999})


def test_places_paid_starts_at_one() -> None:
    assert ("places_paid", "range") in codes({**GOOD, "places_paid": 0})
    assert codes({**GOOD, "places_paid": 1}) == set()


def test_amounts_are_bounded_by_the_column() -> None:
    assert ("buy_in", "range") in codes({**GOOD, "buy_in": 2**40})
    assert ("fee", "range") in codes({**GOOD, "fee": -1})
    assert ("fee", "whole_number") in codes({**GOOD, "fee": "12"})
    assert ("fee", "whole_number") in codes({**GOOD, "fee": True})


def test_currencies_are_iso_4217_codes() -> None:
    assert is_currency("EUR") and is_currency("CHF") and is_currency("JPY")
    for bad in ("ÄÖÜ", "eur", "EU", "EURO", "XYZ", "", None, 978):
        assert not is_currency(bad), bad
    assert ("currency", "currency") in codes({**GOOD, "currency": "ÄÖÜ"})


def test_text_without_nul_and_bounded() -> None:
    assert ("name", "text") in codes({**GOOD, "name": "a\x00b"})
    assert ("venue", "too_long") in codes({**GOOD, "venue": "x" * 121})
    assert ("name", "required") in codes({**GOOD, "name": "  "})


def test_missing_fields_are_not_checked() -> None:
    assert codes({"bounty_kind": "fixed", "bounty": 100}) == set()
