from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


def points_decimal(value: Any) -> Decimal:
    """Points kept in hundredths (an int or a Fraction: leagues.domain.points) as a Decimal."""
    if isinstance(value, Fraction):
        d = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        d = Decimal(value)
    return (d / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def points_text(value: Any) -> str:
    """Points for a file: two decimals at most, a dot, no trailing zeros (`12.5`, `540`)."""
    text = f"{points_decimal(value)}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@register.filter
def points(value: Any) -> str:
    """Points (kept in hundredths) for a reader: two decimals at most, thousands grouped, in
    the reader's number format."""
    if value is None or value == "":
        return ""
    return floatformat(points_decimal(value), "-2g")


@register.filter
def formula_line(text: str) -> str:
    """A formula of several lines on one line, its statements joined by `; ` (as it may be
    written)."""
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())
