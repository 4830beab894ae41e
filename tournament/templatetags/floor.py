"""Template filters: money and chips in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from tournament.domain.money import format_money

register = template.Library()


@register.filter
def money(amount: Any, currency: str = "EUR") -> str:
    if amount is None or amount == "":
        return ""
    return format_money(int(amount), currency or "EUR", (get_language() or "en")[:2])


@register.filter
def chips(amount: Any) -> str:
    if amount is None or amount == "":
        return ""
    value = int(amount)
    sep = "." if (get_language() or "en").startswith("de") else ","
    return f"{value:,}".replace(",", sep)


@register.filter
def money_input(amount: Any) -> str:
    """Cents as a plain decimal for an input field: 12050 -> 120.50, 5000 -> 50."""
    value = int(amount or 0)
    return f"{value // 100}.{value % 100:02d}" if value % 100 else str(value // 100)
