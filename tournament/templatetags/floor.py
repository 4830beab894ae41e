"""Template filters: money and chips in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import date_format
from django.utils.translation import get_language

from core import figures
from tournament.domain.ledger import PAYOUT_METHODS, PURCHASE_METHODS
from tournament.models import PaymentMethod

register = template.Library()


def _money(amount: Any, currency: str, *, signed: bool = False) -> str:
    if amount is None or amount == "":
        return ""
    return figures.money(int(amount), currency, signed=signed)


@register.filter
def money(amount: Any, currency: str = "EUR") -> str:
    """An amount as people write it; below zero with the minus sign ('−36,25 €')."""
    return _money(amount, currency)


@register.filter
def money_less(amount: Any, currency: str = "EUR") -> str:
    """An amount taken off a sum: '−100 €' for 100 € (nothing more for 0). Never put a sign
    before `money` by hand: negative amounts would read '− -36,25 €'."""
    if amount is None or amount == "":
        return ""
    return _money(-int(amount), currency)


@register.filter
def money_signed(amount: Any, currency: str = "EUR") -> str:
    """An amount added to (+) or taken off (−) a sum: '+1.800 €', '−36,25 €'."""
    return _money(amount, currency, signed=True)


@register.filter
def chips(amount: Any) -> str:
    if amount is None or amount == "":
        return ""
    return figures.chips(int(amount))


@register.filter
def money_input(amount: Any) -> str:
    """Cents as a plain decimal for an input field: 12050 -> 120.50, 5000 -> 50."""
    value = int(amount or 0)
    return f"{value // 100}.{value % 100:02d}" if value % 100 else str(value // 100)


# Dates as the reader writes them. Templates name the English pattern; German readers get
# the German form of the same information ("Wed 25 Nov 2026, 20:00" ↔ "Mi., 25. Nov. 2026,
# 20:00"): a dot after the weekday and the day, the month as its usual abbreviation (N).
_DATE_PATTERNS = {
    "de": {
        "D j M Y, H:i": "D., j. N Y, H:i",
        "D j M, H:i": "D., j. N, H:i",
        "D j M Y": "D., j. N Y",
        "j M Y H:i": "j. N Y, H:i",
        "j M Y": "j. N Y",
        "j M H:i": "j. N, H:i",
        "j M": "j. N",
        "D H:i": "D., H:i",
    }
}


@register.filter(expects_localtime=True, is_safe=False)
def when(value: Any, pattern: str = "D j M Y, H:i") -> str:
    if value in (None, ""):
        return ""
    language = (get_language() or "en")[:2]
    return date_format(value, _DATE_PATTERNS.get(language, {}).get(pattern, pattern))


@register.simple_tag
def payment_methods(use: str = "purchase") -> list[tuple[str, str]]:
    """How a purchase (or, with "payout", a payout) may be paid, as (value, label) pairs."""
    allowed = PAYOUT_METHODS if use == "payout" else PURCHASE_METHODS
    return [(m, str(label)) for m, label in PaymentMethod.choices if m in allowed]
