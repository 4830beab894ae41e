"""Money as integers: amounts are always minor units (cents) of a currency, never floats."""

from __future__ import annotations

import re

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF"}
_NUMBER = re.compile(r"^\d+([.,]\d+)*$")


class MoneyError(ValueError):
    """The text is not an amount of money."""


MINUS = "\u2212"  # the minus sign: every negative amount is written with it, as '−36,25 €'


def format_money(
    amount_minor: int, currency: str = "EUR", locale: str = "en", *, signed: bool = False
) -> str:
    """Format cents for people: `123450` -> '€1,234.50' (en) or '1.234,50 €' (de).

    Whole amounts drop the cents ('€120'), as prize lists and buy-ins are usually written.
    A negative amount always starts with the minus sign, without a space ('−€5', '−36,25 €');
    `signed` writes a plus before an amount above zero too ('+1.800 €'), for a sum whose lines
    add and take off. This is the one place money is written for people.
    """
    sign = MINUS if amount_minor < 0 else ("+" if signed and amount_minor > 0 else "")
    units, cents = divmod(abs(amount_minor), 100)
    thousands, decimal = (".", ",") if locale == "de" else (",", ".")
    whole = f"{units:,}".replace(",", thousands)
    number = whole if cents == 0 else f"{whole}{decimal}{cents:02d}"
    symbol = SYMBOLS.get(currency, currency)
    if locale == "de" or len(symbol) > 1:
        return f"{sign}{number}\u00a0{symbol}"
    return f"{sign}{symbol}{number}"


def parse_money(text: str) -> int:
    """Read an amount typed by a person into cents: '50', '12.50', '12,50', '1.234,50 €'.

    Raises MoneyError for anything else, including negative amounts and fractions of a cent.
    """
    cleaned = str(text).strip()
    for symbol in (*SYMBOLS.values(), *SYMBOLS.keys()):
        cleaned = cleaned.replace(symbol, "")
    cleaned = cleaned.replace("\u00a0", "").replace(" ", "").replace("'", "")
    if not cleaned or not _NUMBER.match(cleaned):
        raise MoneyError(f"not an amount: {text!r}")
    last_dot, last_comma = cleaned.rfind("."), cleaned.rfind(",")
    sep_at = max(last_dot, last_comma)
    if sep_at == -1:
        return int(cleaned) * 100
    separator = cleaned[sep_at]
    tail = cleaned[sep_at + 1 :]
    other = "," if separator == "." else "."
    only_one_kind = other not in cleaned
    if only_one_kind and (cleaned.count(separator) > 1 or len(tail) == 3):
        # '1.234' or '1,234,567': thousands separators only.
        groups = cleaned.split(separator)
        if any(len(g) != 3 for g in groups[1:]) or not 0 < len(groups[0]) <= 3:
            raise MoneyError(f"not an amount: {text!r}")
        if groups[0].startswith("0"):
            raise MoneyError(f"fractions of a cent are not money: {text!r}")
        return int("".join(groups)) * 100
    if len(tail) > 2:
        raise MoneyError(f"fractions of a cent are not money: {text!r}")
    head = cleaned[:sep_at]
    if other in head:
        groups = head.split(other)
        if any(len(g) != 3 for g in groups[1:]) or len(groups[0]) > 3:
            raise MoneyError(f"not an amount: {text!r}")
        head = "".join(groups)
    return int(head) * 100 + int(tail.ljust(2, "0"))
