"""Values from a request (query parameters, form fields a page reads by hand), parsed and
bounded. Nothing typed into a page reaches int() or the database unchecked: a wrong value is a
FloorError (a 4xx with a message), never a 500.

Forms and serializers bound their own fields; this module is for the values views read
directly from `request.GET` / `request.POST`.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from core import figures
from core.domain.limits import INT_MAX
from core.domain.money import MoneyError, parse_money
from core.errors import FloorError

# Most chips one stack can hold: far beyond any real stack, well inside a bigint column.
CHIPS_MAX = 10**15
# Longest text a search box reads; names are at most 120 characters.
SEARCH_LONGEST = 120


def whole_number(
    value: Any,
    *,
    low: int = 0,
    high: int = INT_MAX,
    message: Any = None,
    field: str | None = None,
) -> int:
    """A whole number typed in ASCII digits, from `low` to `high`; FloorError otherwise
    ("²" and "٣" are digits to str.isdigit, not to Floor)."""
    text = str(value if value is not None else "").strip()
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        raise FloorError(message or _("Enter a whole number."), field=field)
    number = int(text)
    if not low <= number <= high:
        raise FloorError(
            message
            or _("Enter a whole number from %(low)s to %(high)s.")
            % {"low": figures.chips(low), "high": figures.chips(high)},
            field=field,
        )
    return number


def whole_number_or_none(value: Any, *, low: int = 0, high: int = INT_MAX) -> int | None:
    """A whole number in range, or None for anything else (an empty, absent or odd value)."""
    try:
        return whole_number(value, low=low, high=high)
    except FloorError:
        return None


def whole_numbers(
    values: list[str], *, low: int = 1, high: int = INT_MAX, most: int = 1000
) -> list[int]:
    """The values that are whole numbers in range (others left out), at most `most` of them."""
    found = (whole_number_or_none(v, low=low, high=high) for v in values[:most])
    return [n for n in found if n is not None]


def search_text(value: Any, *, longest: int = SEARCH_LONGEST) -> str:
    """What a person typed into a search box: NUL and other control characters dropped (the
    database refuses NUL), spaces collapsed, cut to `longest`."""
    text = "".join(c if c.isprintable() else " " for c in str(value or "")[: longest * 4])
    return " ".join(text.split())[:longest]


def plain_text(value: Any, *, longest: int, field: str | None = None) -> str:
    """A line of text to keep (a reason, a decision): no NUL, at most `longest` characters."""
    text = str(value or "").strip()
    if "\x00" in text:
        raise FloorError(_("Enter text without control characters."), field=field)
    if len(text) > longest:
        raise FloorError(_("At most %(n)s characters.") % {"n": longest}, field=field)
    return text


def next_url(request: HttpRequest, *, default: str) -> str:
    """The page to go back to after a form: the `next` the form sent when it is a page of
    this site, else `default` (an outside address or `/\\evil.example` is never followed)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    # A path of this site or an address on its host; a bare word ("abc", "²", a number) is
    # neither, and `redirect` would take it for the name of a URL (NoReverseMatch: a 500).
    if (
        target.startswith(("/", "http://", "https://"))
        and "\x00" not in target
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return target
    return default


def amount(value: Any, *, field: str | None = None) -> int:
    """An amount of money typed by a person ("12,50", "1.234 €"), in cents, within what an
    amount column holds."""
    try:
        cents = parse_money(str(value or ""))
    except MoneyError as exc:
        raise FloorError(_("Enter amounts such as 250 or 12.50."), field=field) from exc
    if cents > INT_MAX:
        raise FloorError(_("That amount is too large."), field=field)
    return cents
