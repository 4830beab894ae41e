"""Seats the registration desk frees or gives back: an entry unregistered or voided leaves its
seat, an undone void takes it back, and the alternate who had taken the place leaves it again
(actions/registration.py, actions/corrections.py).

Call inside the command's transaction, with the tournament locked; the command tells the
tablets and the phones."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from core.errors import FloorError
from tables.models import SeatAssignment, Table
from tables.services.seats import seats_free


def entry_seat_release(*, entry_id: int) -> list[int]:
    """Free the entry's seat, if it has one; returns the tables whose seats were freed."""
    return [table_id for table_id, _seat in seats_free(entry_ids=[entry_id]).values()]


def entry_seat_free(*, entry_id: int) -> dict[str, Any] | None:
    """Free the entry's seat; returns it as a voided registration's event keeps it for the
    undo (`seat_give_back`), or None when the entry had no seat."""
    row = SeatAssignment.objects.select_related("table").filter(entry_id=entry_id).first()
    if row is None:
        return None
    seat = {
        "table": row.table_id,
        "table_number": row.table.number,
        "seat": row.seat,
        "must_wait": row.must_wait,
        "stack": row.stack,
    }
    row.delete()
    return seat


def seat_give_back_check(*, seat: dict[str, Any], besides: int | None) -> None:
    """Refuse (FloorError) when a seat freed by a void cannot be given back: its table has
    closed, or someone else sits there now (`besides`: the entry whose seat it may be, the
    alternate who took the place and gives it back)."""
    holder = (
        SeatAssignment.objects.select_related("entry")
        .filter(table_id=seat["table"], seat=seat["seat"])
        .first()
    )
    table = Table.objects.filter(pk=seat["table"], is_open=True).first()
    if table is None:
        raise FloorError(
            _("Table %(t)s has closed since: the seat cannot be given back.")
            % {"t": seat["table_number"]}
        )
    if holder is not None and not (besides is not None and holder.entry_id == besides):
        raise FloorError(
            _("Seat %(s)s at table %(t)s has been given to #%(n)s since.")
            % {"s": seat["seat"], "t": seat["table_number"], "n": holder.entry.number}
        )


def entry_seat_clear(*, entry_id: int) -> None:
    """The entry leaves its seat, if it has one (an alternate going back into the line)."""
    seats_free(entry_ids=[entry_id])


def seat_give_back(*, entry_id: int, seat: dict[str, Any]) -> None:
    """Seat the entry again where `entry_seat_free` found it (checked by
    `seat_give_back_check`)."""
    SeatAssignment.objects.create(
        entry_id=entry_id,
        table_id=seat["table"],
        seat=seat["seat"],
        must_wait=seat.get("must_wait", False),
        stack=seat.get("stack"),
    )
