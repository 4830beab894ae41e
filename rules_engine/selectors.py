"""Reads of the rules engine: the ruleset a tournament plays under, who sits out a penalty,
and the showing order at a showdown (a ruling that changes nothing). Other apps read these
(the dealer tablet, the balancing rules); they never import rules_engine.services."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import FloorError
from rules_engine.domain.show_order import FirstBecause, ShowOrderError, show_order
from rules_engine.models import Penalty
from rules_engine.words import facts_reason
from tournament.selectors import (  # noqa: F401  (read here too)
    tournament_ruleset,
    tournament_version,
)


def _seat_list(value: Any, what: str) -> list[int]:
    """Seats given as a list of numbers or as text ("2, 6, 8")."""
    parts: list[Any] = [None]
    if isinstance(value, str):
        parts = value.replace(",", " ").replace(";", " ").split()
    elif isinstance(value, list):
        parts = value
    for part in parts:
        if _as_int(part) is None:
            raise FloorError(_("%(what)s: enter seat numbers, such as 2, 6, 8.") % {"what": what})
    return [int(part) for part in parts]


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value)
    return None


def _number(value: Any, what: str) -> int | None:
    """A number given as a number or as text; None when left empty."""
    if value is None or value == "":
        return None
    number = _as_int(value)
    if number is None:
        raise FloorError(_("%(what)s: enter a number.") % {"what": what})
    return number


def show_order_ruling(
    facts: dict[str, Any], ruleset_id: str = "tda-de", version: str | None = None
) -> dict[str, Any]:
    """Who shows first at the showdown and which hands go face up at once (tda-de 16-17,
    bdpv 2.5.5, 6.27). Facts: `seats` in the hand, `button`, `table_seats`, `aggressor` (the
    last bet or raise on the last betting round; empty when nobody bet) and `all_in`."""
    seats = _seat_list(facts.get("seats"), _("Seats still in the hand"))
    all_in = _seat_list(facts.get("all_in") or [], _("All-in seats"))
    aggressor = _number(
        facts.get("aggressor"), _("Last bet or raise on the last betting round: seat")
    )
    button = _number(facts.get("button"), _("Button seat"))
    table_seats = _number(facts.get("table_seats"), _("Seats at the table"))
    if button is None or table_seats is None:
        raise FloorError(_("Enter the button seat and the number of seats at the table."))
    try:
        o = show_order(
            seats,
            button=button,
            table_seats=table_seats,
            aggressor=aggressor,
            all_in=all_in,
            ruleset_id=ruleset_id,
            version=version,
        )
    except ShowOrderError as exc:
        raise FloorError(
            _("These facts do not make a showdown: %(reason)s") % {"reason": facts_reason(exc)}
        ) from exc
    return {
        "order": list(o.order),
        "first": o.first,
        "first_because": o.first_because.value,
        "face_up": list(o.face_up),
        "all_face_up": o.all_face_up,
        "all_in": sorted(set(all_in)),
        "floor_sets_order": o.floor_sets_order,
        "rules": list(o.rules),
    }


def _seats_text(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats)


def show_order_text(result: dict[str, Any]) -> tuple[str, list[str]]:
    """The showing order in the reader's language: the headline and the steps."""
    if result["all_face_up"]:
        return (
            _("All hands are turned face up now: seats %(seats)s.")
            % {"seats": _seats_text(sorted(result["face_up"]))},
            [_("Nobody may muck: every hand is shown and stays live for its pots.")],
        )
    first = result["first"]
    if result["first_because"] == FirstBecause.LAST_AGGRESSOR.value:
        text = _("Seat %(seat)s shows first: the last bet or raise of the last betting round.")
    else:
        text = _(
            "Seat %(seat)s shows first: nobody bet on the last betting round, so the first "
            "player left of the button starts."
        )
    steps = []
    rest = result["order"][1:]
    if rest:
        steps.append(
            ngettext(
                "Then clockwise: seat %(seats)s.", "Then clockwise: seats %(seats)s.", len(rest)
            )
            % {"seats": _seats_text(rest)}
        )
    steps.append(_("Each player in turn shows or mucks; only a hand shown in full can win."))
    if result["all_in"]:
        steps.append(
            ngettext(
                "Seat %(seats)s is all-in, but two or more players still had chips: the "
                "all-in hand shows in this order too.",
                "Seats %(seats)s are all-in, but two or more players still had chips: the "
                "all-in hands show in this order too.",
                len(result["all_in"]),
            )
            % {"seats": _seats_text(result["all_in"])}
        )
    if result["floor_sets_order"]:
        steps.append(
            _(
                "The rulebook sets no order when nobody bet on the last round: the floor "
                "decides. This is the usual order, as in a betting round."
            )
        )
    return text % {"seat": first}, steps


def sitting_out(table: Any) -> dict[int, int]:
    """{entry id: hands left} for penalised players at `table`."""
    return _hands_left(
        Penalty.objects.filter(entry_id__in=table.assignments.values("entry_id"), hands_left__gt=0)
    )


def sitting_out_of(entry_ids: Iterable[int]) -> dict[int, int]:
    """{entry id: hands left} for those of `entry_ids` who sit out a penalty (the players of
    several tables in one statement)."""
    ids = list(entry_ids)
    if not ids:
        return {}
    return _hands_left(Penalty.objects.filter(entry_id__in=ids, hands_left__gt=0))


def _hands_left(penalties: Any) -> dict[int, int]:
    rows = penalties.values_list("entry_id", "hands_left")
    out: dict[int, int] = {}
    for entry_id, left in rows:
        out[entry_id] = out.get(entry_id, 0) + left
    return out
