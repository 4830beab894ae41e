"""The seating domain's refusals (tables/domain/seating.py) in the reader's language."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.reasons import reason_text
from tables.domain.button import ButtonError
from tables.domain.seating import SeatingError


def seating_reason(exc: SeatingError) -> str:
    """Why a draw, a break or a move cannot be done, for the floor."""
    v = exc.values
    players, seats = v.get("players", 0), v.get("seats", 0)
    if exc.code == "no_fit":
        return ngettext(
            "%(p)s player does not fit in %(s)s seats.",
            "%(p)s players do not fit in %(s)s seats.",
            players,
        ) % {"p": players, "s": seats}
    if exc.code == "no_room":
        return _("Players to move: %(p)s; open seats at the other tables: only %(s)s.") % {
            "p": players,
            "s": seats,
        }
    if exc.code == "final_fit":
        return _("%(p)s players do not fit a final table of %(s)s seats.") % {
            "p": players,
            "s": seats,
        }
    texts = {
        "twice": _("A player is listed twice."),
        "reserved_unknown": _("A seat is reserved for a player who is not in the draw."),
        "reserved_same_seat": _("Two players are reserved for the same seat."),
        "reserved_table": _("A reserved seat is at table %(t)s, which is not open.")
        % {"t": v.get("table", "?")},
        "no_such_seat": _("Table %(n)s has no seat %(s)s.")
        % {"n": v.get("table", "?"), "s": v.get("seat", "?")},
        "not_enough_seats": _("There are not enough seats."),
        "apart_reserved": _("Two reserved players who must sit apart share a table."),
        "apart": _("The players who must sit apart cannot all be seated apart."),
        "no_open_seat": _("No table has an open seat."),
        "full": _("Table %(t)s is full.") % {"t": v.get("table", "?")},
        "taken": _("Table %(n)s seat %(s)s is taken.")
        % {"n": v.get("table", "?"), "s": v.get("seat", "?")},
        "last_table": _("The last table cannot be broken."),
        "changing": _("The tables keep changing; try again."),
        "final_size": _("A final table has 2 to 10 seats."),
    }
    return str(texts.get(exc.code, exc))


BUTTON_REASONS = {
    "no player at the table": gettext_lazy("nobody sits at the table."),
    "the table is full": gettext_lazy("the table is full."),
    "a table has 2 to 10 seats": gettext_lazy("a table has 2 to 10 seats."),
    "a hand needs two players": gettext_lazy("a hand needs two players."),
    "a seat number is outside the table": gettext_lazy("a seat number is outside the table."),
}
BUTTON_PATTERNS = [
    (
        re.compile(r"seat (?P<s>\d+) has no player for the button"),
        gettext_lazy("nobody sits in seat %(s)s to take the button."),
    ),
    (
        re.compile(r"seat (?P<s>\d+) is not at the table"),
        gettext_lazy("seat %(s)s is not at the table."),
    ),
]


def button_reason(exc: ButtonError) -> str:
    """Why the button cannot go where the floor put it (tables/domain/button.py)."""
    return reason_text(exc, BUTTON_REASONS, BUTTON_PATTERNS)
