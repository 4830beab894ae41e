"""Figures in messages, grouped the reader's way: 105,010 chips in English, 105.010 in German.

Every message that names a chip count or an amount of money formats it here, in the language
active when the message is built (the request's), as the templates' `chips` and `money`
filters do for the pages.
"""

from __future__ import annotations

from django.utils.translation import get_language

from core.domain.money import format_money


def _language() -> str:
    return (get_language() or "en")[:2]


def chips(amount: int) -> str:
    """A number of chips, or any whole number a person reads: 105010 -> '105,010' / '105.010'."""
    value = int(amount)
    separator = "." if _language() == "de" else ","
    return f"{value:,}".replace(",", separator)


def money(amount_minor: int, currency: str = "EUR", *, signed: bool = False) -> str:
    """An amount of money given in cents: 123450 -> '€1,234.50' / '1.234,50 €'; below zero
    with the minus sign against the figure ('−36,25 €'); `signed` writes a plus too."""
    return format_money(int(amount_minor), currency or "EUR", _language(), signed=signed)
