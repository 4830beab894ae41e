"""A refused structure in the user's language, naming the row by its level number."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.domain.structure import StructureError

# One sentence per check of `tournament.domain.structure.validate_levels`.
REASONS = {
    "no_levels": gettext_lazy("The structure has no levels."),
    "only_breaks": gettext_lazy("The structure has only breaks."),
    "starts_with_break": gettext_lazy("The structure cannot start with a break."),
    "too_many": gettext_lazy("A structure has at most %(limit)s rows."),
    "chip_value": gettext_lazy("%(where)s: blinds and chip values go up to %(limit)s."),
    "colour_up_count": gettext_lazy("%(where)s: at most 20 chip values are coloured up."),
    "minutes": gettext_lazy("%(where)s: a level or break lasts 1 to %(limit)s minutes."),
    "break_blinds": gettext_lazy("%(where)s: a break has no blinds."),
    "colour_up_positive": gettext_lazy("%(where)s: colour-up chip values must be positive."),
    "colour_up_in_level": gettext_lazy("%(where)s: chips are coloured up in breaks only."),
    "blinds_positive": gettext_lazy("%(where)s: the big blind must be above zero."),
    "small_above_big": gettext_lazy("%(where)s: the small blind is larger than the big blind."),
    "big_blind_down": gettext_lazy("%(where)s: the big blind is lower than the level before."),
}


def row_name(*, number: int | None = None, after: int | None = None) -> str:
    """ "Level 5" or "Break after level 4": breaks are not levels."""
    if number is not None:
        return _("Level %(n)s") % {"n": number}
    if after:
        return _("Break after level %(n)s") % {"n": after}
    return _("Break before level 1")


def structure_error_text(exc: StructureError) -> str:
    """The reason a structure was refused, worded for the reader; an import's own reason
    (a line of a file that cannot be read) stays as the domain gave it."""
    reason = REASONS.get(exc.code)
    if reason is None:
        return str(exc)
    params = dict(exc.params)
    where = row_name(number=params.pop("number", None), after=params.pop("after", None))
    return str(reason) % {"where": where, **params}
