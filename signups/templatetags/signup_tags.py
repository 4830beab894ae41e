"""What other pages show of the sign-ups: the public page's "Sign up" link and the desk's box of
sign-ups still to check in."""

from __future__ import annotations

from django import template

from signups.selectors import SheetNumbers, sheet_numbers, sheet_or_none, to_check_in
from tournament.models import Tournament

register = template.Library()


@register.simple_tag
def signup_sheet(tournament: Tournament) -> SheetNumbers | None:
    """The sheet's numbers, or None when the tournament has no sign-up sheet."""
    sheet = sheet_or_none(tournament)
    return sheet_numbers(tournament, sheet) if sheet is not None else None


@register.simple_tag
def signups_to_check_in(tournament: Tournament) -> int | None:
    return to_check_in(tournament)
