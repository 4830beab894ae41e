"""Corrections that reach beyond the tournament's own rows: voiding a wrong registration frees
its seat (tables), gives its place to the first alternate (seated once seats are drawn) and,
before the start, to the waiting list of sign-ups; undoing the void gives the seat back and
sends the alternate back into the line. The other corrections (the person on an entry, a
name, money between entries) and their undos are the tournament's alone
(tournament/services/corrections.py); `correction_undo` here undoes any of them.

Each command is one transaction, read top to bottom: check (the tournament's lock first), do
(each app writes its own tables through its services), notify (tablets, phones, the board).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from actions.registration import alternate_promote_next, entry_seat_if_drawn
from signups.services import seat_freed
from tables.live import notify_tables
from tables.services.corrections import (
    entry_seat_clear,
    entry_seat_free,
    seat_give_back,
    seat_give_back_check,
)
from tournament.events import Actor
from tournament.live import notify_seats
from tournament.models import Entry, EntryStatus, Event, Tournament
from tournament.services import corrections


@transaction.atomic
def entry_void(
    *,
    entry: Entry,
    actor: Actor,
    move_to: int | None = None,
    correct_payments: bool = False,
) -> Event:
    """Void a wrong registration. Its money is refunded, or, with `move_to` (an entry number),
    booked on that entry instead. Only a registration still in play or waiting can be voided:
    a bust is undone first. Returns the correction event."""
    void = corrections.entry_void_check(entry=entry, move_to=move_to)
    tournament, entry = void.tournament, void.entry
    corrections.entry_void_apply(void, actor=actor)
    seat = entry_seat_free(entry_id=entry.pk)
    if seat is not None:
        notify_tables(tournament.pk, [seat["table"]])
        notify_seats([entry.pk])
    promoted = (
        alternate_promote_next(tournament=tournament, actor=actor) if void.was_active else None
    )
    event = corrections.entry_void_record(
        void, actor=actor, seat=seat, promoted=promoted, correct_payments=correct_payments
    )
    # A seat freed before the start goes to the waiting list of sign-ups.
    seat_freed(tournament.pk, Actor.system("seat freed"))
    corrections.entry_void_told(void, event, actor=actor)
    return event


@transaction.atomic
def correction_undo(
    *, tournament: Tournament, event_id: int, actor: Actor, correct_payments: bool = False
) -> Event:
    """Undo one correction, restoring the state before it; refused when later changes make
    that impossible. Returns the undo's event."""
    tournament, event = corrections.correction_undo_check(tournament=tournament, event_id=event_id)
    if event.action == corrections.VOID:
        result = _void_undo(tournament, event, actor=actor, correct_payments=correct_payments)
    else:
        result = corrections.correction_undo_apply(tournament, event)
    return corrections.correction_undo_record(tournament, event, actor=actor, result=result)


def _void_undo(
    tournament: Tournament, event: Event, *, actor: Actor, correct_payments: bool
) -> dict[str, Any]:
    """The voided registration comes back as it was: its money, its place in the field or in
    the line of alternates, its seat (or a random one once seats are drawn); the alternate who
    took the place waits again."""
    undo = corrections.void_undo_check(tournament, event)
    seat, back, entry = undo.seat, undo.back, undo.entry
    if seat:
        seat_give_back_check(seat=seat, besides=back.pk if back is not None else None)
    if back is not None:
        entry_seat_clear(entry_id=back.pk)
        notify_seats([back.pk])
    corrections.void_undo_apply(tournament, undo, actor=actor)
    if seat:
        seat_give_back(entry_id=entry.pk, seat=seat)
        notify_tables(tournament.pk, [seat["table"]])
        notify_seats([entry.pk])
    elif entry.status == EntryStatus.ACTIVE:
        entry_seat_if_drawn(tournament, entry, actor)
    return corrections.void_undo_money(tournament, undo, correct_payments=correct_payments)
