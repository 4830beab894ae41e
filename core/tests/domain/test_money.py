import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.domain.money import MoneyError, format_money, parse_money


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("50", 5000),
        ("12.50", 1250),
        ("12,50", 1250),
        ("12,5", 1250),
        ("1.234,50 €", 123450),
        ("€1,234.50", 123450),
        ("1,234", 123400),
        ("1.234", 123400),
        ("0", 0),
        (" 7 ", 700),
    ],
)
def test_parse(text, cents):
    assert parse_money(text) == cents


@pytest.mark.parametrize(
    "text", ["", "abc", "-5", "1.234.5", "12.345,678", "1,2,3", "1e5", "0.001"]
)
def test_parse_refuses(text):
    with pytest.raises(MoneyError):
        parse_money(text)


def test_format():
    assert format_money(123450) == "€1,234.50"
    assert format_money(123450, locale="de") == "1.234,50\u00a0€"
    assert format_money(12000, locale="de") == "120\u00a0€"
    assert format_money(-500) == "\u2212€5"
    assert format_money(-3625, locale="de") == "\u221236,25\u00a0€"
    assert format_money(180000, locale="de", signed=True) == "+1.800\u00a0€"
    assert format_money(0, signed=True) == "€0"


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(["en", "de"]))
def test_format_then_parse_round_trips(cents, locale):
    assert parse_money(format_money(cents, "EUR", locale)) == cents
